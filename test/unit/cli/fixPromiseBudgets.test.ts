// The loop's promise, continued (see fixPromise.test.ts): budgets are deadlines, odd workspaces and servers, errors.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, treeBytes } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { alive } from '../support/processes';
import { answer, COMMENT, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

describe('greenloop fix keeps its promise: budgets, odd workspaces, errors (real CLI, scripted model server)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  describe('budgets are deadlines', () => {
    it('a prompt that cannot fit the token budget is not sent at all', async () => {
      const res = await h.fix([answer(FIX_ADD)], ['--max-tokens', '400']);
      assert.strictEqual(res.code, 1);
      assert.strictEqual(res.report.reason, 'budget-tokens');
      assert.match(res.report.reasonText, /the model was not asked/);
      assert.strictEqual(h.server.requests.length, 0);
      assert.strictEqual(res.report.requests, 0);
    });

    it('each call asks for no more completion tokens than the budget has left', async () => {
      const res = await h.fix([{ content: FIX_ADD, usage: { prompt_tokens: 900, completion_tokens: 200 } }, answer(FIX_MUL)], ['--max-tokens', '1400']);
      const sent = h.server.requests[0].body.max_tokens;
      assert.ok(Number.isInteger(sent) && sent > 0 && sent < 1400 - 256, `max_tokens ${sent}`);
      // After the first call 1,100 of 1,400 are used: the next prompt alone does not fit, so there is no second call.
      assert.strictEqual(res.report.reason, 'budget-tokens');
      assert.strictEqual(h.server.requests.length, 1);
    });

    // The clocks below only tell "stopped at the deadline" from "waited for what it was given": each slow thing
    // (an answer held 120 s, a stream of 120 s or more, a 300 s sleep) lasts far longer than the bound, and the bound
    // is many times the budget, so a busy machine never changes a verdict.
    it('a model server that never answers is stopped at the time budget, as budget-time', async () => {
      const started = Date.now();
      const res = await h.fix([{ delayMs: 120_000 }], ['--max-minutes', '0.05']);
      const took = Date.now() - started;
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.reason, 'budget-time');
      assert.ok(took < 60_000, `took ${took} ms against a 3 s budget: it waited for the answer held 120 s`);
    });

    it('a model that streams slowly is cut off at the time budget', async () => {
      const started = Date.now();
      // 40,000 one-character deltas at least 3 ms apart: two minutes or more if it were let run.
      const res = await h.fix([{ content: 'x'.repeat(40_000), chunkChars: 1, usage: { prompt_tokens: 10, completion_tokens: 10 } }], ['--max-minutes', '0.05'], { stream: true });
      assert.strictEqual(res.report.reason, 'budget-time', res.stderr);
      assert.ok(Date.now() - started < 60_000, `took ${Date.now() - started} ms: it read the whole stream`);
    });

    it('a test run still going at the deadline is killed, and the unverified edit undone', async () => {
      const pidFile = path.join(h.stateDir, 'pid');
      const cmd = `if grep -q "a + b;" src/calc.js; then echo $$ > "${pidFile}"; sleep 300; fi; node --test test/`;
      const before = treeBytes(h.project);
      const started = Date.now();
      // 24 s: room for the baseline run and the answer on a busy machine (9 s was too little with two CPU burners
      // beside a loaded 2-core machine) before the deadline finds the tests running.
      const res = await h.fix([answer(FIX_ADD)], ['--test-cmd', cmd, '--max-minutes', '0.4']);
      const took = Date.now() - started;
      assert.strictEqual(res.report.reason, 'budget-time', res.stderr);
      assert.ok(took < 90_000, `took ${took} ms against a 24 s budget: it waited for the tests' 300 s sleep`);
      assert.deepStrictEqual(treeBytes(h.project), before);
      assert.strictEqual(alive(Number(fs.readFileSync(pidFile, 'utf8'))), false, 'the test command outlived the budget');
    });

    it('a Retry-After longer than the time left ends the run at once instead of waiting', async () => {
      const started = Date.now();
      // 24 s: room for the baseline on a busy machine before the first request, and still less than the 30 s asked for.
      const res = await h.fix([{ status: 429, headers: { 'Retry-After': '30' } }, answer(FIX_ADD)], ['--max-minutes', '0.4']);
      assert.strictEqual(res.report.reason, 'budget-time', res.stderr);
      // Decided before any wait: the reason names the wait it refused, and no second request was made.
      assert.match(res.report.reasonText, /waiting 30 s to try again would outlast the time budget/);
      assert.strictEqual(h.server.requests.length, 1, 'no second request: it did not wait and try again');
      assert.ok(Date.now() - started < 60_000, 'it ended at once instead of waiting');
    });

    it('an agent command still working at the deadline is killed', async () => {
      const pidFile = path.join(h.stateDir, 'agent.pid');
      const script = path.join(h.stateDir, 'slow-agent.sh');
      fs.writeFileSync(script, `#!/bin/sh\necho $$ > "${pidFile}"\nsleep 300\n`, { mode: 0o755 });
      const started = Date.now();
      // 24 s: room for the baseline run on a busy machine before the deadline finds the agent working.
      const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', script, '--tsc', 'off', '--state-dir', h.stateDir, '--json', '--max-minutes', '0.4']);
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.reason, 'budget-time', res.stderr);
      assert.ok(Date.now() - started < 90_000, "it waited for the agent's 300 s sleep");
      assert.strictEqual(alive(Number(fs.readFileSync(pidFile, 'utf8'))), false);
    });

    it('--extra-iterations, --extra-tokens grant that much more from where the run stopped @heavy', async () => {
      const first = await h.fix([answer(COMMENT('one')), answer(COMMENT('two'))], ['--max-tokens', '100000']);
      assert.strictEqual(first.report.reason, 'stagnation');
      const used = first.report.tokens.prompt + first.report.tokens.completion;
      await h.fix([answer(COMMENT('three')), answer(COMMENT('four'))], ['--resume', 'last', '--hint', 'look at add()', '--extra-iterations', '2', '--extra-tokens', '5000']);
      // 2 attempts used + 2 granted; tokens: what was used + 5,000 (not the 100,000 of the first limit).
      assert.match(h.prompt(2), /Attempt 3 of 4 \(budget left: 1 more attempt after this one, 5,000 tokens/);
      assert.ok(used > 0);
    });

    it('refuses to resume a run whose spent budget the grant does not extend, in one sentence', async () => {
      // Room for the first prompt (about 900 tokens with its code context) and an answer; the call then spends it all.
      const first = await h.fix([{ content: FIX_ADD, usage: { prompt_tokens: 1300, completion_tokens: 300 } }], ['--max-tokens', '1600']);
      assert.strictEqual(first.report.llmCalls, 1, first.stderr);
      assert.strictEqual(first.report.reason, 'budget-tokens');
      const res = await h.fix([answer(FIX_MUL)], ['--resume', 'last', '--hint', 'mul adds', '--extra-iterations', '2']);
      assert.strictEqual(res.code, 2, `${first.stderr}\n---\n${res.stderr}`);
      assert.match(res.stderr, /cannot go on: the 1,600-token budget is spent; grant more tokens \(--extra-tokens N\)/);
    });
  });

  describe('odd workspaces and servers', () => {
    it('an edit through a linked folder lands on the link target, which snapshots record (no crash)', async () => {
      h.write('lib/util.js', 'module.exports = 1;\n');
      fs.symlinkSync('../lib', path.join(h.project, 'src', 'lib'));
      const res = await h.fix([answer(edit('src/lib/util.js', 'module.exports = 1;', 'module.exports = 2;')), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3']);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.strictEqual(res.report.iterations[0].verdict, 'no-progress');
      assert.strictEqual(h.read('lib/util.js'), 'module.exports = 2;\n');
    });

    it('says so when the model server ignores max_tokens', async () => {
      const res = await h.fix([{ content: FIX_ADD, usage: { prompt_tokens: 900, completion_tokens: 50_000 } }], ['--max-tokens', '3000']);
      assert.strictEqual(res.report.reason, 'budget-tokens');
      assert.match(res.report.warnings.join(' '), /reported 50,000 completion tokens for an answer limited to [\d,]+ \(max_tokens\): it does not honour the limit/);
    });

    it('every subcommand explains itself with --help (exit 0)', async () => {
      for (const sub of ['fix', 'verify', 'parse']) {
        const res = await runCli([sub, '--help']);
        assert.strictEqual(res.code, 0, `${sub}: ${res.stderr}`);
        assert.match(res.stdout, new RegExp(`^Usage:\\n  greenloop ${sub} `));
      }
    });
  });

  describe('errors', () => {
    it('a test command that hangs at baseline still prints a JSON report (escalated, verify-error, exit 1)', async () => {
      const res = await h.fix([answer(FIX_ADD)], ['--test-cmd', 'sleep 30', '--verify-timeout-s', '1']);
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.outcome, 'escalated');
      assert.strictEqual(res.report.reason, 'verify-error');
      assert.match(res.report.reasonText, /did not finish within 1 s on the unchanged workspace/);
      assert.match(res.stderr, /stopped \(verify-error\): The test command did not finish/);
      assert.match(res.stderr, /the first test run could not be used/);
      assert.doesNotMatch(res.stderr, /baseline — 0 failing/);
      assert.strictEqual(h.server.requests.length, 0);
    });

    it('stops at once on 400 (deterministic), and after 2 retries on 5xx', async () => {
      const bad = await h.fix([{ status: 400, body: { error: { message: 'messages: field required' } } }]);
      assert.strictEqual(bad.report.reason, 'actor-error');
      assert.match(bad.report.reasonText, /messages: field required/);
      assert.strictEqual(h.server.requests.length, 1);
      assert.strictEqual(bad.report.requests, 1);
      h.server.requests.length = 0;
      const flaky = await h.fix([{ status: 500 }, { status: 502 }, { status: 503 }, answer(FIX_ADD)]);
      assert.strictEqual(flaky.report.reason, 'actor-error');
      assert.match(flaky.report.reasonText, /after 2 retries/);
      assert.strictEqual(flaky.report.requests, 3);
      assert.strictEqual(flaky.report.llmCalls, 0);
    });

    it('an agent CLI that fails the same way twice stops the run', async () => {
      const script = path.join(h.stateDir, 'broken-agent.sh');
      fs.writeFileSync(script, '#!/bin/sh\necho "error: no API key configured" >&2\nexit 1\n', { mode: 0o755 });
      const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', script, '--tsc', 'off', '--state-dir', h.stateDir, '--json']);
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.reason, 'actor-error');
      assert.strictEqual(report.iterations.length, 2);
      assert.match(report.reasonText, /failed the same way twice: The agent command exited with code 1; its last output:\nerror: no API key configured/);
    });
  });
});

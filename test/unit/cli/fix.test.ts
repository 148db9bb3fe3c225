// `greenloop fix` end to end: the real CLI, a real git temp repo, real `node --test`, and a scripted
// OpenAI-compatible server on loopback. Each test is one outcome a user can meet.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, startCli, tempDir, tempProject, treeBytes } from '../support/cli';
import type { CliResult } from '../support/cli';
import { directTestCommand } from '../support/fixHarness';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer, ScriptStep } from '../../support/fakeOpenAIServer';
import { answer, BREAK_NEG, COMMENT, FIX_ADD, FIX_MUL, UNCOMMENT, WEAKEN_TEST } from '../../support/calcAnswers';

describe('greenloop fix (real CLI, scripted model server)', function () {
  this.timeout(120_000);
  let server: FakeOpenAIServer;
  let project: string;
  let stateDir: string;

  /** `detect`: no --test-cmd, so the CLI finds `npm test` in package.json as a person's first run does. */
  async function fix(script: ScriptStep[], extra: string[] = [], env?: NodeJS.ProcessEnv, detect = false): Promise<CliResult & { report: any }> {
    server.push(...script);
    const testCmd = detect || extra.includes('--test-cmd') ? [] : directTestCommand(project);
    const res = await runCli(
      ['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', stateDir, '--json', ...testCmd, ...extra],
      { env },
    );
    let report: any = null;
    try {
      report = JSON.parse(res.stdout);
    } catch {
      /* asserted by the caller */
    }
    return { ...res, report };
  }
  const prompt = (i: number): string => server.requests[i].body.messages.map((m: { content: string }) => m.content).join('\n');
  const source = () => fs.readFileSync(path.join(project, 'src', 'calc.js'), 'utf8');

  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    project = tempProject('calc');
    stateDir = tempDir('state');
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('is green at once without calling the model when the tests already pass', async () => {
    fs.writeFileSync(path.join(project, 'src', 'calc.js'), source().replace('a - b', 'a + b').replace('return a + b;\n}\n\nfunction neg', 'return a * b;\n}\n\nfunction neg'));
    const res = await fix([], [], undefined, true);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green');
    assert.strictEqual(res.report.iterations.length, 0);
    assert.strictEqual(res.report.llmCalls, 0);
    assert.strictEqual(server.requests.length, 0);
  });

  it('goes on to green when whoever read its progress lines went away (stderr closed: EPIPE), and still writes its report', async () => {
    server.push(answer(FIX_ADD), answer(FIX_MUL));
    const { child, done } = startCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off',
      '--state-dir', stateDir, '--json', ...directTestCommand(project)]);
    child.stderr!.destroy();
    const res = await done;
    assert.strictEqual(res.code, 0, `exit ${res.code}; stdout: ${res.stdout.slice(0, 300)}`);
    assert.strictEqual(JSON.parse(res.stdout).outcome, 'green');
    assert.ok(source().includes('a + b') && source().includes('a * b'), 'both fixes are on disk');
  });

  it('makes progress, then goes green, and the tests really pass on disk', async () => {
    const res = await fix([answer(FIX_ADD), answer(FIX_MUL)], [], undefined, true);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green');
    assert.deepStrictEqual(res.report.baseline.failing, ['calc > adds', 'calc > multiplies']);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['progress', 'green']);
    assert.deepStrictEqual(res.report.iterations[0].failing, ['calc > multiplies']);
    assert.deepStrictEqual(res.report.tokens, { prompt: 2400, completion: 160 });
    assert.match(prompt(0), /Attempt 1 of 8/);
    assert.match(prompt(0), /calc > adds/);
    assert.match(prompt(1), /Attempt 2 of 8/);
    assert.match(source(), /return a \* b;/);
    const verify = await runCli(['verify', '--cwd', project, '--tsc', 'off']);
    assert.strictEqual(verify.code, 0, verify.stdout);
    assert.match(res.stderr, /attempt 1\/8/);
  });

  it('stops with stagnation after 2 attempts on a permanent failure and leaves the baseline byte for byte', async () => {
    const before = treeBytes(project);
    const res = await fix([answer(COMMENT('one')), answer(COMMENT('two')), answer(COMMENT('three'))]);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.report.outcome, 'escalated');
    assert.strictEqual(res.report.reason, 'stagnation');
    assert.strictEqual(res.report.iterations.length, 2);
    assert.strictEqual(server.requests.length, 2);
    assert.strictEqual(res.report.final.state, 'best');
    assert.deepStrictEqual(treeBytes(project), before);
    assert.match(prompt(1), /one attempt left before this loop stops/);
  });

  it('detects a cycle when the workspace returns to an earlier state (A → B → A)', async () => {
    const res = await fix([answer(COMMENT('B')), answer(UNCOMMENT('B'))], ['--patience', '5']);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.report.reason, 'cycle');
    assert.strictEqual(res.report.iterations.length, 2);
    assert.notStrictEqual(res.report.iterations[0].treeHash, res.report.iterations[1].treeHash);
    assert.doesNotMatch(source(), /\/\/ B/);
  });

  // With the whole suite after every attempt: failing tests first judges BREAK_NEG by the two failing tests alone and
  // finds the break at the next whole-suite run (fixFailingFirst.test.ts, "finds a regression hidden…").
  it('rolls back an edit that breaks a passing test, and the next prompt says so', async () => {
    const res = await fix([answer(BREAK_NEG), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3', '--verify-scope', 'full']);
    assert.strictEqual(res.code, 0, res.stderr);
    const first = res.report.iterations[0];
    assert.strictEqual(first.verdict, 'regression');
    assert.strictEqual(first.rolledBack, true);
    assert.ok(first.failing.includes('calc > negates'));
    assert.match(prompt(1), /broke `calc > negates`.*rolled back/);
    assert.match(source(), /return -a;/);
  });

  it('stops on a repeated proposal instead of applying the same edit again', async () => {
    const res = await fix([answer(BREAK_NEG), answer(BREAK_NEG)], ['--patience', '5']);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.report.reason, 'repeated-proposal');
    assert.strictEqual(res.report.iterations[0].proposalHash, res.report.iterations[1].proposalHash);
    assert.match(source(), /return -a;/);
  });

  it('refuses an edit to a protected test file and leaves the test unchanged', async () => {
    const testFile = path.join(project, 'test', 'calc.test.js');
    const before = fs.readFileSync(testFile);
    const res = await fix([answer(WEAKEN_TEST), answer(FIX_ADD), answer(FIX_MUL)]);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.iterations[0].verdict, 'invalid-proposal');
    assert.match(res.report.iterations[0].note, /protected/);
    assert.match(prompt(1), /calc\.test\.js is a protected test file/);
    assert.deepStrictEqual(fs.readFileSync(testFile), before);
  });

  it('lets the model edit tests only with --allow-test-edits', async () => {
    const res = await fix([answer(WEAKEN_TEST)], ['--allow-test-edits', '--max-iterations', '1']);
    assert.strictEqual(res.report.iterations[0].verdict, 'progress');
    assert.match(fs.readFileSync(path.join(project, 'test', 'calc.test.js'), 'utf8'), /-1\)/);
  });

  it('stops at the iteration budget', async () => {
    const res = await fix([answer(FIX_ADD)], ['--max-iterations', '1']);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.report.reason, 'budget-iterations');
    assert.deepStrictEqual(res.report.final.failing, ['calc > multiplies']);
  });

  it('stops at the token budget', async () => {
    // Room for the first prompt and an answer, not for a second call after it spends 1,100 (whatever the prompt's size).
    const res = await fix([{ content: FIX_ADD, usage: { prompt_tokens: 900, completion_tokens: 200 } }, answer(FIX_MUL)], ['--max-tokens', '1500']);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.report.reason, 'budget-tokens');
    assert.strictEqual(server.requests.length, 1);
  });

  it('stops at the wall-clock budget', async () => {
    const res = await fix([{ ...answer(FIX_ADD), delayMs: 1500 }, answer(FIX_MUL)], ['--max-minutes', '0.02']);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.report.reason, 'budget-time');
  });

  it('waits out a 429 with Retry-After without spending an iteration', async () => {
    const started = Date.now();
    const res = await fix([{ status: 429, headers: { 'Retry-After': '1' } }, answer(FIX_ADD), answer(FIX_MUL)]);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.iterations.length, 2);
    assert.strictEqual(server.requests.length, 3);
    assert.ok(Date.now() - started >= 1000);
    assert.match(res.stderr, /retry 1/);
  });

  it('stops with actor-error and the server message on 401, leaving files alone', async () => {
    const before = treeBytes(project);
    const res = await fix([{ status: 401, body: { error: { message: 'Invalid API key provided.' } } }]);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.report.reason, 'actor-error');
    assert.match(res.report.reasonText, /Invalid API key provided/);
    assert.strictEqual(server.requests.length, 1);
    assert.deepStrictEqual(treeBytes(project), before);
  });

  it('treats an answer without usable edit blocks as an invalid proposal and tells the model why', async () => {
    const res = await fix([answer('I would change the add function to use plus.'), answer(FIX_ADD), answer(FIX_MUL)]);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.iterations[0].verdict, 'invalid-proposal');
    assert.match(prompt(1), /SEARCH/);
  });

  it('resumes an escalated run with a hint and an explicit extra budget', async () => {
    const first = await fix([answer(COMMENT('one')), answer(COMMENT('two'))]);
    assert.strictEqual(first.report.reason, 'stagnation');
    const res = await fix([answer(FIX_ADD), answer(FIX_MUL)], ['--resume', 'last', '--hint', 'add() subtracts; look at the operators', '--extra-iterations', '2']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.runId, first.report.runId);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.n), [1, 2, 3, 4]);
    assert.match(prompt(2), /add\(\) subtracts; look at the operators/);
    // The grant counts from where the run stopped (2 attempts used): 2 more, not the 6 the first limit had left.
    assert.match(prompt(2), /Attempt 3 of 4/);
    assert.match(res.stderr, /extra budget of 2 attempts/);
  });

  it('runs a command actor (a shell script that edits files itself)', async () => {
    const script = path.join(stateDir, 'agent.sh');
    fs.writeFileSync(script, [
      '#!/bin/sh',
      'grep -q "Attempt" "$GREENLOOP_PROMPT_FILE" || exit 9',
      "sed -i 's/return a - b;/return a + b;/' src/calc.js",
      "sed -i '/function mul/{n;s/a + b/a * b/}' src/calc.js",
      '',
    ].join('\n'), { mode: 0o755 });
    const res = await runCli(['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', script, '--tsc', 'off', '--state-dir', stateDir, '--json']);
    const report = JSON.parse(res.stdout);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(report.outcome, 'green');
    assert.deepStrictEqual(report.iterations[0].files, ['src/calc.js']);
  });

  it('undoes a command actor\'s edit to a protected test file and calls the attempt invalid', async () => {
    const testFile = path.join(project, 'test', 'calc.test.js');
    const before = fs.readFileSync(testFile);
    const script = path.join(stateDir, 'cheat.sh');
    fs.writeFileSync(script, "#!/bin/sh\nsed -i 's/, 5));/, -1));/' test/calc.test.js\n", { mode: 0o755 });
    const res = await runCli(['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', script, '--tsc', 'off', '--state-dir', stateDir, '--json', '--max-iterations', '1']);
    const report = JSON.parse(res.stdout);
    assert.strictEqual(report.iterations[0].verdict, 'invalid-proposal');
    assert.match(report.iterations[0].note, /protected test file/);
    assert.deepStrictEqual(fs.readFileSync(testFile), before);
  });

  it('says in one line what is wrong with bad usage (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['fix', '--cwd', project, '--tsc', 'off'], /Choose a model/],
      [['fix', '--cwd', path.join(project, 'nope'), '--actor', 'command', '--actor-cmd', 'true'], /does not exist/],
      [['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', 'true', '--max-iterations', 'zero'], /--max-iterations must be/],
      [['fix', '--cwd', project, '--actor', 'openai', '--base-url', 'ftp://x', '--model', 'm'], /--base-url must start with http/],
      [['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', 'true', '--on-give-up', 'pray'], /--on-give-up must be/],
      [['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', 'true', '--max-answer-bytes', '2MB'], /^greenloop: --max-answer-bytes must be a whole number of at least 1000 \(got "2MB"\)\.$/m],
      [['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', 'true', '--max-answer-bytes', '10'], /--max-answer-bytes must be a whole number of at least 1000 \(got "10"\)\./],
    ];
    for (const [args, pattern] of cases) {
      const res = await runCli(args);
      assert.strictEqual(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, pattern);
      assert.strictEqual(res.stderr.trim().split('\n').length, 1, res.stderr);
    }
  });
});

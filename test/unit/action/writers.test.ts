// The action's pure writers and its patch, without a runner: inputs → flags, what the summary and annotations do
// with hostile text, the annotation cap, and a patch with a binary file that `git apply` reproduces byte for byte.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { InputError, planFromInputs } from '../../../src/action/inputs';
import { jobSummary, fenced, fixedTests } from '../../../src/action/jobSummary';
import { localPlaces, withoutLocalPaths } from '../../../src/action/runPlace';
import { annotationsFor, lineIn, MAX_ERRORS } from '../../../src/action/annotations';
import { writePatch } from '../../../src/action/patch';
import type { FixReport } from '../../../src/core/run/report';
import type { RunFacts } from '../../../src/action/runFacts';
import { tempDir } from '../support/cli';

function report(over: Partial<FixReport> = {}): FixReport {
  return {
    outcome: 'escalated', reason: 'stagnation', reasonText: 'No progress in the last 2 attempts.', runId: 'r1',
    baseline: { failing: ['a', 'b'], loadErrorFiles: [], diagnostics: 0 }, final: { failing: ['a', 'b'], loadErrorFiles: [], diagnostics: 0, state: 'best' },
    iterations: [], llmCalls: 0, requests: 0, tokens: { prompt: 0, completion: 0 }, flaky: [], warnings: [], ...over,
  };
}

describe('the action\'s inputs', () => {
  const env = { GITHUB_WORKSPACE: '/repo', RUNNER_TEMP: '/tmp/rt', GITHUB_RUN_ID: '77', KEY: 'sk-1' };
  const plan = (inputs: Record<string, string>, e: NodeJS.ProcessEnv = env) => planFromInputs((n) => inputs[n] ?? '', e);

  it('mirror the fix flags, one --check and --protect per line, and stop the loop 2 minutes before the job', () => {
    const p = plan({ 'working-directory': 'packages/app', 'test-command': 'npm test', 'base-url': 'http://m/v1', model: 'm', 'api-key-env': 'KEY',
      checks: 'npx eslint .\n\n  npx tsc --noEmit  \n', protect: 'fixtures/**', 'allow-test-edits': 'true', 'on-give-up': 'restore-baseline', 'verify-scope': 'full', 'timeout-minutes': '20', 'max-minutes': '45' });
    assert.strictEqual(p.cwd, '/repo/packages/app');
    assert.deepStrictEqual(p.args, ['--cwd', '/repo/packages/app', '--test-cmd', 'npm test', '--base-url', 'http://m/v1', '--model', 'm', '--verify-scope', 'full', '--on-give-up', 'restore-baseline',
      '--check', 'npx eslint .', '--check', 'npx tsc --noEmit', '--protect', 'fixtures/**', '--allow-test-edits', '--api-key-env', 'KEY', '--max-minutes', '18']);
    assert.deepStrictEqual(p.secrets, ['sk-1']);
    assert.match(p.notes[0], /max-minutes 45 would outlast the job's timeout-minutes 20; the loop stops after 18 minutes/);
    assert.strictEqual(p.reportPath, '/tmp/rt/greenloop-packages-app/report.json');
    assert.strictEqual(p.pullRequest.branch, 'greenloop/fix-77-packages-app');
  });

  it('pass the candidates and, when asked, their parallel judging on to the loop', () => {
    assert.deepStrictEqual(plan({ candidates: '3', 'candidates-parallel': 'true' }).args.slice(0, 5), ['--cwd', '/repo', '--candidates', '3', '--candidates-parallel']);
    assert.ok(!plan({ candidates: '3', 'candidates-parallel': 'false' }).args.includes('--candidates-parallel'));
    assert.throws(() => plan({ 'candidates-parallel': 'sometimes' }), /candidates-parallel must be true or false \(got "sometimes"\)/);
  });

  it('default to the CLI\'s 30 minutes under GitHub\'s 360-minute job timeout', () => {
    assert.deepStrictEqual(plan({}).args.slice(-2), ['--max-minutes', '30']);
  });

  it('refuse a pasted key, an unset variable and a job too short, each in one sentence that never repeats the key', () => {
    assert.throws(() => plan({ 'api-key-env': 'sk-proj-abc123' }), (e: Error) => e instanceof InputError && /the NAME of the environment variable/.test(e.message) && !e.message.includes('sk-proj'));
    assert.throws(() => plan({ 'api-key-env': 'NOPE' }), /names NOPE, but no such variable is set for this step; add `env: NOPE: \$\{\{ secrets\.NOPE \}\}`/);
    assert.throws(() => plan({ 'timeout-minutes': '1' }), /timeout-minutes 1 leaves no time for the loop/);
    assert.throws(() => plan({ 'open-pull-request': 'yes' }), /open-pull-request must be true or false \(got "yes"\)/);
  });
});

describe('the job summary', () => {
  it('shows text from tests and models as code: no mention, no issue link, no markup', () => {
    const hostile = '<img src=x onerror=alert(1)> @octocat Fixes #12';
    const facts: RunFacts = {
      report: report({ final: { failing: [hostile], loadErrorFiles: [], diagnostics: 0, state: 'best' }, iterations: [{ n: 1, verdict: 'no-progress', failing: [hostile], loadErrorFiles: [], rolledBack: false, treeHash: null, proposalHash: null, tokens: { prompt: 1, completion: 1 }, durationMs: 1000, note: hostile, hypothesis: '', files: ['src/<b>.js'], ran: 3, missing: [], flaky: [] }] }),
      reportPath: '/tmp/r.json',
    };
    const md = jobSummary(facts);
    assert.ok(!md.includes('<img'), md);
    assert.ok(!md.includes('<b>.js'));
    for (const m of md.matchAll(/@octocat|#12/g)) {
      const before = md.slice(0, m.index);
      assert.ok(before.lastIndexOf('<code>') > before.lastIndexOf('</code>'), `"${m[0]}" at ${m.index} is inside <code>`);
    }
  });

  // Issue 33: attempt 0 is the project's fixers; their commands stand in its row, and it is no attempt of the budget.
  it('names the project\'s fixers\' row and commands, and counts only the model\'s attempts', () => {
    const it0 = { n: 0, verdict: 'green', failing: [], loadErrorFiles: [], rolledBack: false, treeHash: null, proposalHash: null, tokens: { prompt: 0, completion: 0 }, durationMs: 1000, note: 'all tests pass and ESLint reports no error', hypothesis: '', files: ['src/a.js'], ran: 1, missing: [], flaky: [], actor: 'autofix' as const, commands: [{ tool: 'ESLint', command: 'npx eslint --fix src/a.js', ms: 812, exitCode: 0 }] };
    const md = jobSummary({ report: report({ outcome: 'green', reason: null, iterations: [it0] }), reportPath: '/tmp/r.json', details: { failures: [], diagnostics: [], loadErrors: [], limits: { maxIterations: 8, maxTokens: 0, maxMinutes: 30 }, elapsedMs: 60_000 } });
    assert.match(md, /<td>0 \(fixers, no model\)<\/td>/);
    assert.match(md, /npx eslint --fix src\/a\.js \(0\.8 s\)/);
    assert.match(md, /0 of 8 attempts/);
  });

  // Issue 41: an attempt that asked for several answers gets a compact table of them under the attempts.
  it("lists each answer of an attempt with several candidates: verdict, failing tests, files, tokens, and why it was not kept", () => {
    const cand = (k: number, over: Partial<NonNullable<FixReport['iterations'][number]['candidates']>[number]>) => ({
      k, tokens: { prompt: 1200, completion: 100 }, files: ['src/a.js'], verdict: 'no-progress' as const, failing: 2, newlyFailing: 0, findings: 0, diffLines: 2, votes: 1, chosen: false, note: '', proposalHash: null, ...over,
    });
    const it1 = {
      n: 1, verdict: 'green', failing: [], loadErrorFiles: [], rolledBack: false, treeHash: null, proposalHash: null, tokens: { prompt: 3600, completion: 300 }, durationMs: 1000, note: '', hypothesis: '', files: ['src/a.js'], ran: 2, missing: [], flaky: [],
      candidates: [
        cand(1, { verdict: 'green', failing: 0, chosen: true, note: 'the failing tests pass' }),
        cand(2, { failing: 3, newlyFailing: 1, note: 'the failing tests still fail, and 1 other test now fails', lostBecause: 'answer 1 turns the failing tests green' }),
        cand(3, { verdict: 'refused', failing: null, files: ['test/<a>.test.js'], note: 'test/<a>.test.js is a protected test file', lostBecause: 'it was refused' }),
      ],
    };
    const md = jobSummary({ report: report({ outcome: 'green', reason: null, iterations: [it1] }), reportPath: '/tmp/r.json' });
    assert.match(md, /<p><b>Attempt 1's answers:<\/b> 3 candidates — 1 green, 1 no progress, 1 refused; answer 1 went on to the whole suite\.<\/p>/);
    assert.match(md, /<tr><th>Answer<\/th><th>Verdict<\/th><th>Failing tests<\/th><th>Files<\/th><th>Tokens<\/th><th>Note<\/th><\/tr>/);
    assert.match(md, /<tr><td>1 \(kept\)<\/td><td>green<\/td><td>0<\/td><td><code>src\/a\.js<\/code><\/td><td>1,300<\/td><td><code>the failing tests pass<\/code><\/td><\/tr>/);
    assert.match(md, /<tr><td>2<\/td><td>no progress<\/td><td>3 \(1 newly\)<\/td>.*not kept: answer 1 turns the failing tests green<\/code>/);
    assert.match(md, /<tr><td>3<\/td><td>refused<\/td><td>—<\/td><td><code>test\/&lt;a&gt;\.test\.js<\/code><\/td>/);
    assert.ok(!md.includes('<a>'), 'a file name is escaped');
    // A run of one answer per attempt has no such table.
    const { candidates: _none, ...single } = it1;
    assert.doesNotMatch(jobSummary({ report: report({ iterations: [single] }), reportPath: '/tmp/r.json' }), /answers:/);
  });

  it('names the tests fixed and those still failing, 20 of each at most and "and N more", and links the run instead of a path', () => {
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
    const facts: RunFacts = {
      report: report({ baseline: { failing: [...ids('fixed', 25), ...ids('still', 23)], loadErrorFiles: [], diagnostics: 0 }, final: { failing: ids('still', 23), loadErrorFiles: [], diagnostics: 0, state: 'best' } }),
      reportPath: '/home/runner/work/_temp/greenloop/report.json',
      run: { url: 'https://github.com/acme/calc/actions/runs/77', artifacts: 'https://github.com/acme/calc/actions/runs/77#artifacts', id: '77' },
    };
    const md = jobSummary(facts);
    const fixed = md.slice(md.indexOf('<b>Fixed:</b>'), md.indexOf('<b>Still failing:</b>'));
    assert.match(fixed, /^<b>Fixed:<\/b> 25 tests<\/p>/);
    assert.strictEqual((fixed.match(/<li><code>fixed \d+<\/code><\/li>/g) ?? []).length, 20);
    assert.match(fixed, /<li>…and 5 more \(see the report\)<\/li>/);
    const still = md.slice(md.indexOf('<b>Still failing:</b>'));
    assert.match(still, /^<b>Still failing:<\/b> 23 failing<\/p>/);
    assert.strictEqual((still.match(/<li><code>still \d+<\/code><\/li>/g) ?? []).length, 20);
    assert.match(still, /<li>…and 3 more \(see the report\)<\/li>/);
    assert.ok(!md.includes('/home/runner'), md);
    assert.match(md, /<p>Report: <code>report\.json<\/code>, files of <a href="https:\/\/github\.com\/acme\/calc\/actions\/runs\/77">run 77<\/a> \(in <a href="https:\/\/github\.com\/acme\/calc\/actions\/runs\/77#artifacts">its artifacts<\/a>/);
  });

  it('a test that went missing in the state left is not counted as fixed', () => {
    const last = { n: 1, verdict: 'regression', failing: [], loadErrorFiles: [], rolledBack: false, treeHash: null, proposalHash: null, tokens: { prompt: 1, completion: 1 }, durationMs: 1, note: '', hypothesis: '', files: [], ran: 1, missing: ['b'], flaky: [] };
    assert.deepStrictEqual(fixedTests(report({ final: { failing: [], loadErrorFiles: [], diagnostics: 0, state: 'last' }, iterations: [last] })), ['a']);
  });

  it('writes the runner\'s folders by their names: the checkout, its temp, the home folder', () => {
    const places = localPlaces({ GITHUB_WORKSPACE: '/home/runner/work/calc/calc', RUNNER_TEMP: '/home/runner/work/_temp', HOME: '/home/runner' });
    assert.strictEqual(withoutLocalPaths('at /home/runner/work/calc/calc/src/a.js, /home/runner/work/_temp/x, /home/runner/.npm and /home/runners', places),
      'at $GITHUB_WORKSPACE/src/a.js, $RUNNER_TEMP/x, ~/.npm and /home/runners');
  });

  it('fences a diff with more backticks than it contains, so a diff cannot close its block', () => {
    const text = 'a ```` b\n';
    assert.strictEqual(fenced(text, 'diff'), '`````diff\na ```` b\n`````');
  });
});

describe('the annotations', () => {
  it('put a failing test on its file and line from the stack, relative to the repository root', () => {
    const facts: RunFacts = { report: report({ final: { failing: ['a'], loadErrorFiles: [], diagnostics: 0, state: 'best' } }), reportPath: 'r', details: { failures: [{ id: 'a', file: '/repo/pkg/test/a.test.js', message: 'boom\n    at x (/repo/pkg/test/a.test.js:12:5)' }], diagnostics: [], loadErrors: [] } };
    const [, failing] = annotationsFor(facts, { cwd: '/repo/pkg', repoRoot: '/repo' });
    assert.deepStrictEqual({ file: failing.file, line: failing.startLine, col: failing.startColumn }, { file: 'pkg/test/a.test.js', line: 12, col: 5 });
    assert.strictEqual(lineIn('at (other.js:3:1)', 'a.js', '/r'), undefined);
  });

  it('stop at GitHub\'s 10 errors a step, the tenth saying how many more', () => {
    const ids = Array.from({ length: 25 }, (_, i) => `t${i}`);
    const diagnostics = [{ file: 'src/a.ts', line: 3, column: 7, code: 'TS2322', message: 'nope' }];
    const facts: RunFacts = { report: report({ final: { failing: ids, loadErrorFiles: [], diagnostics: 1, state: 'best' } }), reportPath: 'r', details: { failures: [], diagnostics, loadErrors: [] } };
    const errors = annotationsFor(facts, { cwd: '/repo', repoRoot: '/repo' }).filter((a) => a.level === 'error');
    assert.strictEqual(errors.length, MAX_ERRORS);
    assert.match(errors[MAX_ERRORS - 1].message, /…and 17 more failing tests and diagnostics/);
  });
});

describe('the patch', () => {
  it('is binary-safe and applies on the checked-out commit, with only the files the attempts touched', () => {
    const repo = tempDir('patch');
    const git = (...a: string[]) => execFileSync('git', a, { cwd: repo, stdio: 'pipe' });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255, 254, 0, 10, 13, 0]);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(repo, 'logo.png'), png);
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'base');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'two\n');
    fs.writeFileSync(path.join(repo, 'logo.png'), Buffer.concat([png, Buffer.from([0, 0, 7])]));
    fs.writeFileSync(path.join(repo, 'new.bin'), Buffer.from([0, 255, 0, 1]));
    fs.writeFileSync(path.join(repo, 'junit.xml'), '<testsuite/>'); // the test command's own output: not in the patch
    return writePatch({ cwd: repo, files: ['a.txt', 'logo.png', 'new.bin'], patchPath: path.join(repo, '..', `${path.basename(repo)}.patch`) }).then((p) => {
      try {
        assert.strictEqual(p.files, 3);
        const fresh = tempDir('patch-apply');
        execFileSync('git', ['clone', '-q', repo, fresh]);
        execFileSync('git', ['apply', p.path], { cwd: fresh });
        for (const f of ['a.txt', 'logo.png', 'new.bin']) assert.deepStrictEqual(fs.readFileSync(path.join(fresh, f)), fs.readFileSync(path.join(repo, f)), f);
        assert.ok(!fs.existsSync(path.join(fresh, 'junit.xml')));
        assert.strictEqual(execFileSync('git', ['diff', '--cached', '--name-only'], { cwd: repo, encoding: 'utf8' }), '', 'the repository\'s own index is untouched');
        fs.rmSync(fresh, { recursive: true, force: true });
      } finally {
        fs.rmSync(repo, { recursive: true, force: true });
        fs.rmSync(p.path, { force: true });
      }
    });
  });
});

// Failing tests first, per runner family, through the real CLI on a real small suite: a wrong edit is judged by the
// failing test alone — the narrowed command (its file and its name) is in the report — and the fix that makes it pass
// is judged by the whole suite, then confirmed by running only the test that flipped. The Node families run in every
// `npm test` (cli/fixTargeted.test.ts), and unittest, which needs only python3; jest, vitest, pytest, go and cargo in
// `npm run test:heavy`.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from './cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, edit } from '../../support/calcAnswers';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'targetedLoop');

export interface Family {
  name: string;
  testCmd: string;
  /** Where node_modules comes from: Greenloop's own, or a runner cached by install-runners.sh. */
  nodeModules?: 'greenloop' | 'jest' | 'vitest';
  source: string;
  wrong: [string, string];
  fix: [string, string];
  /** The narrowed command: the failing test's file (or package) and its name. */
  targeted: RegExp;
  failing: string;
}

const JS_WRONG: [string, string] = ['function add(a, b) {', '// Adds two numbers.\nfunction add(a, b) {'];
const JS_FIX: [string, string] = ['  return a - b;', '  return a + b;'];

export const FAMILIES: Family[] = [
  {
    name: 'node --test (npm test resolved to its script)', testCmd: 'npm test', source: 'src/calc.js', wrong: JS_WRONG, fix: JS_FIX, failing: 'math > adds',
    targeted: /^node --test '--test-name-pattern=\^\(\?:math adds\|adds\|math > adds\)\$' test\/a\.test\.js$/,
  },
  {
    name: 'mocha', testCmd: 'npx mocha --reporter dot test/', nodeModules: 'greenloop', source: 'src/calc.js', wrong: JS_WRONG, fix: JS_FIX, failing: 'math > adds',
    targeted: /^npx mocha --reporter spec --grep '\^\(\?:math adds\)\$' test\/a\.test\.js$/,
  },
  {
    name: 'jest', testCmd: 'npm test', nodeModules: 'jest', source: 'src/calc.js', wrong: JS_WRONG, fix: JS_FIX, failing: 'math > adds',
    targeted: /^jest --ci .*-t '\^\(\?:math adds\)\$' --runTestsByPath test\/a\.test\.js$/,
  },
  {
    name: 'vitest', testCmd: 'npm test', nodeModules: 'vitest', source: 'src/calc.js', wrong: ['export function add(a, b) {', '// Adds two numbers.\nexport function add(a, b) {'], fix: JS_FIX, failing: 'math > adds',
    targeted: /^vitest run .*-t '\^\(\?:math adds\)\$' test\/a\.test\.js$/,
  },
  {
    name: 'pytest (a node id)', testCmd: 'python3 -m pytest', source: 'app/calc.py', wrong: ['def add(a, b):', '# Adds two numbers.\ndef add(a, b):'], fix: ['    return a - b', '    return a + b'],
    failing: 'tests/test_a.py > TestMath > test_adds', targeted: /^python3 -m pytest -rA '?tests\/test_a\.py::TestMath::test_adds'?$/,
  },
  {
    name: 'unittest (dotted names, -v)', testCmd: 'python3 -m unittest', source: 'app/calc.py', wrong: ['def add(a, b):', '# Adds two numbers.\ndef add(a, b):'], fix: ['    return a - b', '    return a + b'],
    failing: 'tests/test_a.py > TestMath > test_adds', targeted: /^python3 -m unittest -v tests\.test_a\.TestMath\.test_adds$/,
  },
  {
    name: 'go (the package and an anchored -run)', testCmd: 'go test -v ./...', source: 'calc/calc.go', wrong: ['func Add(a, b int) int {', '// Add adds two numbers.\nfunc Add(a, b int) int {'], fix: ['\treturn a - b', '\treturn a + b'],
    failing: 'TestAdds', targeted: /^go test -v -run '\^\(\?:TestAdds\)\$' \.\/calc$/,
  },
  {
    name: 'cargo (the exact test name)', testCmd: 'cargo test', source: 'src/lib.rs', wrong: ['pub fn add(a: i32, b: i32) -> i32 {', '/// Adds two numbers.\npub fn add(a: i32, b: i32) -> i32 {'], fix: ['    a - b', '    a + b'],
    failing: 'math > adds', targeted: /^cargo test -- --exact math::adds$/,
  },
];

/** The loop per family: `names` picks the families by the first word of their name (`node`, `mocha`, `go` …). */
export function describeTargetedFamilies(title: string, names: readonly string[]): void {
    describe(title, function () {
    this.timeout(600_000);
    let server: FakeOpenAIServer;
    let runnersCache = '';
    const made: string[] = [];

    before(() => {
      // Only what these families need (node --test and mocha need nothing: mocha is Greenloop's own).
      const needed = names.filter((n) => ['jest', 'vitest', 'pytest', 'unittest', 'go', 'cargo'].includes(n));
      if (!needed.length) return;
      runnersCache = execFileSync('bash', [path.join(ROOT, 'test', 'fixtures', 'targeted', 'install-runners.sh'), ...needed], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!;
    });
    beforeEach(async () => {
      server = await startFakeOpenAIServer([]);
    });
    afterEach(async () => {
      await server.close();
    });
    after(() => {
      for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    });

    function project(f: Family, fixture: string): string {
      const dir = tempDir(`targeted-loop-${fixture}`);
      made.push(dir);
      fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
      if (f.nodeModules) fs.symlinkSync(f.nodeModules === 'greenloop' ? path.join(ROOT, 'node_modules') : path.join(runnersCache, f.nodeModules, 'node_modules'), path.join(dir, 'node_modules'));
      const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
      return dir;
    }

    for (const f of FAMILIES.filter((family) => names.includes(family.name.split(' ')[0]))) {
      const fixture = f.name.split(' ')[0];
      it(`${f.name}: a wrong edit is judged by the failing test alone, the fix by the whole suite`, async () => {
        const dir = project(f, fixture);
        const state = tempDir('targeted-loop-state');
        made.push(state);
        server.push(answer(edit(f.source, ...f.wrong)), answer(edit(f.source, ...f.fix)));
        const env = { CI: '1', NO_COLOR: '1', ...(runnersCache ? { CARGO_TARGET_DIR: path.join(runnersCache, 'cargo-target') } : {}), GOFLAGS: '-count=1' };
        const res = await runCli(['fix', '--cwd', dir, '--test-cmd', f.testCmd, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', state, '--json'], { env, timeoutMs: 540_000 });
        const report = JSON.parse(res.stdout);
        assert.strictEqual(report.outcome, 'green', res.stderr);
        assert.deepStrictEqual(report.baseline.failing, [f.failing]);
        assert.deepStrictEqual(report.iterations.map((i: any) => i.verdict), ['no-progress', 'green']);

        const [wrong, fixed] = report.iterations;
        assert.deepStrictEqual(wrong.testRuns.map((r: any) => r.scope), ['targeted'], 'the wrong edit never ran the whole suite');
        assert.match(wrong.testRuns[0].command, f.targeted);
        assert.match(wrong.note, /the failing test still fails/);
        assert.match(res.stderr, /attempt 1: running the failing test\n/);
        // The fix: the failing test first, then the whole suite, then the flipped test again to confirm green.
        assert.deepStrictEqual(fixed.testRuns.map((r: any) => r.scope), ['targeted', 'full', 'targeted']);
        assert.match(fixed.testRuns[2].command, f.targeted);
        assert.ok(fixed.testRuns[1].tests > fixed.testRuns[0].tests, `the whole suite ran more tests (${fixed.testRuns[1].tests}) than the targeted run (${fixed.testRuns[0].tests})`);
        assert.match(res.stderr, /attempt 2: running the whole suite\n/);
        assert.ok(report.testMs >= [...wrong.testRuns, ...fixed.testRuns].reduce((s: number, r: any) => s + r.ms, 0));
      });
    }
  });
}

// The narrowed command run for real, per runner family: a whole-suite run finds the failing tests, the narrowed
// command runs only those (their files, their names), and its output reads with the existing parsers.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CommandVerifier } from '../../../src/verify/commandVerifier';
import { narrowToTargets } from '../../../src/runners/narrow';
import type { Targeted } from '../../../src/runners/narrow';
import { targetedCoverage } from '../../../src/core/judge/targetedCoverage';
import type { Witness } from '../../../src/ports/verifier';

const ROOT = path.join(__dirname, '..', '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'targeted');
const ADD = 'adds [1+1] (ü)';
const QUOTE = `quotes 'single' "double" / back\\slash`;
let runnersCache = '';

interface Outcome {
  dir: string;
  full: Witness;
  targeted: Extract<Targeted, { ok: true }>;
  narrowed: Witness;
}

function workspaceFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.name === 'node_modules' || e.name === 'target' || e.name.startsWith('.')) return [];
    return e.isDirectory() ? workspaceFiles(dir, p) : [p];
  });
}

const made: string[] = [];
async function runBoth(fixture: string, testCommand: string, nodeModulesFrom?: string): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gl-targeted-${fixture}-`));
  made.push(dir);
  fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  if (nodeModulesFrom) fs.symlinkSync(nodeModulesFrom === 'greenloop' ? path.join(ROOT, 'node_modules') : path.join(runnersCache, nodeModulesFrom, 'node_modules'), path.join(dir, 'node_modules'));
  const env = { ...process.env, CI: '1', NO_COLOR: '1', CARGO_TARGET_DIR: path.join(runnersCache, 'cargo-target'), GOFLAGS: '-count=1' };
  const full = await new CommandVerifier({ cwd: dir, testCommand, tsc: 'off', timeoutMs: 300_000, env }).verify();
  const manifest = path.join(dir, 'package.json');
  const scripts = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')).scripts : null;
  const targeted = narrowToTargets({ testCommand, runner: full.runner, targets: full.failures, scripts, files: workspaceFiles(dir) });
  assert.ok(targeted.ok, targeted.ok ? '' : targeted.why);
  const PATH = [...targeted.pathDirs.map((d) => path.join(dir, d)), process.env.PATH].join(path.delimiter);
  const narrowed = await new CommandVerifier({ cwd: dir, testCommand: targeted.command, tsc: 'off', timeoutMs: 300_000, env: { ...env, PATH } }).verify();
  return { dir, full, targeted, narrowed };
}

function assertOnlyTargets(o: Outcome, targets: string[], alsoRan: string[] = []): void {
  assert.deepStrictEqual(o.full.failing, [...targets].sort(), 'the whole suite fails exactly the targets');
  assert.ok((o.full.ranCount ?? o.full.ran?.length ?? 0) > targets.length + alsoRan.length, 'the whole suite ran more than the targets');
  assert.deepStrictEqual(o.narrowed.failing, [...targets].sort());
  assert.deepStrictEqual(o.narrowed.ran?.filter((id) => !o.narrowed.skipped.includes(id)), [...targets, ...alsoRan].sort(), 'the narrowed run ran only the targets');
  const coverage = targetedCoverage(targets, o.narrowed);
  assert.ok(coverage.complete, coverage.complete ? '' : coverage.why);
  assert.deepStrictEqual(coverage.failing, [...targets].sort());
}

describe('targeted runs on real suites', function () {
  this.timeout(600_000);
  before(() => {
    runnersCache = execFileSync('bash', [path.join(FIXTURES, 'install-runners.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!;
  });
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('node --test: `npm test` resolved to its script, one file, the targets by name', async () => {
    const o = await runBoth('node', 'npm test');
    assert.strictEqual(o.targeted.command,
      `node --test '--test-name-pattern=^(?:math adds \\[1\\+1\\] \\(ü\\)|adds \\[1\\+1\\] \\(ü\\)|math > adds \\[1\\+1\\] \\(ü\\)|math quotes '\\''single'\\'' "double" \\/ back\\\\slash|quotes '\\''single'\\'' "double" \\/ back\\\\slash|math > quotes '\\''single'\\'' "double" \\/ back\\\\slash)$' test/a.test.js`);
    assert.deepStrictEqual(o.targeted.files, ['test/a.test.js']);
    // node matches a test's own name as well as its path: "other > adds…" in the same file shares the targets' own name.
    assertOnlyTargets(o, [`math > ${ADD}`, `math > ${QUOTE}`], [`other > ${ADD}`]);
  });

  it('mocha: its files and --grep on the full title, with a reporter that names every test', async () => {
    const o = await runBoth('mocha', 'npx mocha --reporter dot test/', 'greenloop');
    assert.match(o.targeted.command, /^npx mocha --reporter spec --grep '\^\(\?:math adds .*' test\/a\.test\.js$/);
    assertOnlyTargets(o, [`math > ${ADD}`, `math > ${QUOTE}`]);
  });

  it('jest: --runTestsByPath and -t on the full name', async () => {
    const o = await runBoth('jest', 'npm test', 'jest');
    assert.match(o.targeted.command, /^jest --ci --verbose -t '\^\(\?:math adds .*' --runTestsByPath test\/a\.test\.js$/);
    assertOnlyTargets(o, [`math > ${ADD}`, `math > ${QUOTE}`]);
  });

  it('vitest: its file and -t on the full name', async () => {
    const o = await runBoth('vitest', 'npm test', 'vitest');
    assert.match(o.targeted.command, /^vitest run --reporter=json -t '\^\(\?:math adds .*' test\/a\.test\.js$/);
    assertOnlyTargets(o, [`math > ${ADD}`, `math > ${QUOTE}`]);
  });

  it('pytest: node ids, parameters with quotes, slashes and unicode included', async () => {
    const o = await runBoth('pytest', 'python3 -m pytest');
    assert.match(o.targeted.command, /^python3 -m pytest -rA 'tests\/test_a\.py::TestMath::test_adds\[1\+1\]' /);
    const targets = o.full.failing;
    assert.strictEqual(targets.length, 2);
    assertOnlyTargets(o, targets);
  });

  it('unittest: dotted names, exactly the targets; a subtest-only failure is its test\'s', async () => {
    const o = await runBoth('unittest', 'python3 -m unittest');
    const targets = ['tests/test_a.py > TestMath > test_adds', 'tests/test_a.py > TestOther > test_fails_too'];
    assert.strictEqual(o.targeted.command, 'python3 -m unittest -v tests.test_a.TestMath.test_adds tests.test_a.TestOther.test_fails_too');
    assertOnlyTargets(o, targets);
  });

  it('unittest: a discovery from another top-level folder keeps discovering, -k selecting (and a name it shares a start with)', async () => {
    const o = await runBoth('unittest', 'python3 -m unittest discover -s tests');
    assert.strictEqual(o.targeted.command, 'python3 -m unittest discover -v -s tests -k test_a.TestMath.test_adds -k test_a.TestOther.test_fails_too');
    assertOnlyTargets(o, ['tests/test_a.py > TestMath > test_adds', 'tests/test_a.py > TestOther > test_fails_too'], ['tests/test_a.py > TestMath > test_adds_more']);
  });

  it('Django\'s manage.py test: the labels of the failing tests, -v 2 to name each one', async () => {
    const o = await runBoth('django', '/usr/bin/python3 manage.py test');
    assert.strictEqual(o.targeted.command, '/usr/bin/python3 manage.py test -v 2 shop.tests.PriceTests.test_each shop.tests.PriceTests.test_total');
    assertOnlyTargets(o, ['shop/tests.py > PriceTests > test_each', 'shop/tests.py > PriceTests > test_total']);
  });

  it('go: the failing test\'s package and an anchored -run', async () => {
    const o = await runBoth('go', 'go test -v ./...');
    assert.strictEqual(o.targeted.command, "go test -v -run '^(?:TestAdds)$' ./calc");
    // TestAddsMore (same prefix), TestPasses and the other package's TestAdds do not run.
    assertOnlyTargets(o, ['TestAdds > one_plus_one']);
  });

  it('a name that matches nothing runs nothing, and that is never read as passing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-targeted-none-'));
    made.push(dir);
    fs.cpSync(path.join(FIXTURES, 'node'), dir, { recursive: true });
    // A test renamed since the best state was measured: the filter finds no such test, and node exits 0.
    const targets = [{ id: 'math > adds [1+1] (ü) renamed', file: 'test/a.test.js' }];
    const t = narrowToTargets({ testCommand: 'node --test test/', runner: 'tap', targets });
    assert.ok(t.ok);
    const w = await new CommandVerifier({ cwd: dir, testCommand: t.command, tsc: 'off', timeoutMs: 120_000 }).verify();
    assert.deepStrictEqual(w.failing, []);
    const coverage = targetedCoverage(targets.map((x) => x.id), w);
    assert.ok(!coverage.complete);
    assert.deepStrictEqual(coverage.unseen, ['math > adds [1+1] (ü) renamed']);
  });

  it('cargo: exact test names after --', async () => {
    const o = await runBoth('cargo', 'cargo test');
    assert.strictEqual(o.targeted.command, 'cargo test -- --exact math::adds');
    assertOnlyTargets(o, ['math > adds']);
  });
});

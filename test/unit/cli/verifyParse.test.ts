// `greenloop verify` and `greenloop parse` as a user runs them: the witness, the exit codes, the one-line errors.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { linkTypescript, ROOT, runCli, tempDir } from '../support/cli';
import { alive } from '../support/processes';

/** A copy of examples/cart whose node_modules/typescript is this repository's (the "workspace's own" tsc). */
function cartWithTypescript(): string {
  const dir = tempDir('cart');
  fs.cpSync(path.join(ROOT, 'examples', 'cart'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  linkTypescript(dir);
  return dir;
}

describe('greenloop verify', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('prints the witness of examples/cart that a person can check by reading it', async () => {
    const cart = cartWithTypescript();
    dirs.push(cart);
    const res = await runCli(['verify', '--cwd', cart]);
    assert.strictEqual(res.code, 1, res.stderr);
    const w = JSON.parse(res.stdout);
    assert.strictEqual(w.green, false);
    assert.deepStrictEqual(w.failing, [
      'Cart > total > applies a percentage discount',
      'Cart > total > multiplies price by quantity',
      'formatPrice > formats cents as dollars',
    ]);
    assert.deepStrictEqual(w.diagnostics.map((d: any) => [d.file, d.code]), [['src/format.js', 'TS2322']]);
    assert.strictEqual(w.loadError, false);
    assert.strictEqual(w.exitCode, 1);
    assert.strictEqual(w.timedOut, false);
    assert.match(w.signature, /^[0-9a-f]{64}$/);
  });

  it('takes --json, as fix does, and prints the same witness (verify always prints JSON)', async () => {
    const cart = cartWithTypescript();
    dirs.push(cart);
    const [plain, json] = [await runCli(['verify', '--cwd', cart]), await runCli(['verify', '--json', '--cwd', cart])];
    assert.strictEqual(json.code, 1, json.stderr);
    assert.strictEqual(json.stderr, '');
    const [a, b] = [JSON.parse(plain.stdout), JSON.parse(json.stdout)];
    assert.deepStrictEqual(b.failing, a.failing);
    assert.strictEqual(b.signature, a.signature);
  });

  it('gives the same signature to two runs of the same failing state, from two different folders', async () => {
    const a = cartWithTypescript();
    const b = cartWithTypescript();
    dirs.push(a, b);
    const [ra, rb] = [await runCli(['verify', '--cwd', a]), await runCli(['verify', '--cwd', b])];
    assert.strictEqual(JSON.parse(ra.stdout).signature, JSON.parse(rb.stdout).signature);
    fs.writeFileSync(path.join(b, 'src', 'format.js'), fs.readFileSync(path.join(b, 'src', 'format.js'), 'utf8').replace('cents / 100', 'cents / 10'));
    const rc = await runCli(['verify', '--cwd', b]);
    assert.notStrictEqual(JSON.parse(rc.stdout).signature, JSON.parse(ra.stdout).signature);
  });

  it('is green (exit 0) when the tests pass and tsc is clean', async () => {
    const cart = cartWithTypescript();
    dirs.push(cart);
    const cartJs = path.join(cart, 'src', 'cart.js');
    fs.writeFileSync(cartJs, fs.readFileSync(cartJs, 'utf8').replace('sum + line.price, 0', 'sum + line.price * line.quantity, 0').replace('(1 - percent)', '(1 - percent / 100)'));
    fs.writeFileSync(path.join(cart, 'src', 'format.js'), "// @ts-check\n/** @param {number} cents @returns {string} */\nfunction formatPrice(cents) {\n  return `$${(cents / 100).toFixed(2)}`;\n}\nmodule.exports = { formatPrice };\n");
    const res = await runCli(['verify', '--cwd', cart]);
    assert.strictEqual(res.code, 0, res.stdout);
    assert.strictEqual(JSON.parse(res.stdout).green, true);
  });

  it('is never green when the suite fails to load, even with no failing test', async () => {
    const dir = tempDir('loaderror');
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'a.test.js'), "require('node:test')('x', () => {});\nthis is not javascript\n");
    const res = await runCli(['verify', '--cwd', dir, '--test-cmd', 'node --test a.test.js', '--tsc', 'off']);
    const w = JSON.parse(res.stdout);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(w.green, false);
    assert.strictEqual(w.loadError, true);
    // node --test reports the broken file itself as a failed test: it is a file that did not load, named
    // workspace-relative, and no failing test.
    assert.deepStrictEqual(w.failing, []);
    assert.deepStrictEqual(w.loadErrorFiles, ['a.test.js']);
  });

  it('reports how many tests ran, and a run of zero tests is never green and says why', async () => {
    const dir = tempDir('filtered');
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'a.test.js'), "const test = require('node:test');\ntest('one', () => {});\ntest('two', () => {});\n");
    const all = await runCli(['verify', '--cwd', dir, '--test-cmd', 'node --test a.test.js', '--tsc', 'off']);
    const w = JSON.parse(all.stdout);
    assert.strictEqual(all.code, 0, all.stderr);
    assert.strictEqual(w.ran, 2);
    assert.strictEqual(w.passedCount, 2);
    assert.deepStrictEqual(w.warnings, []);
    const none = await runCli(['verify', '--cwd', dir, '--test-cmd', 'node --test --test-name-pattern=nomatch a.test.js', '--tsc', 'off']);
    const z = JSON.parse(none.stdout);
    assert.strictEqual(none.code, 1, 'a command that ran no test is not green');
    assert.strictEqual(z.green, false);
    // node reports the tests the filter left out as skipped: reported, but none executed.
    assert.strictEqual(z.ran, 2);
    assert.strictEqual(z.skippedCount, 2);
    assert.match(z.warnings[0], /ran no tests \(2 skipped\)/);
    assert.match(none.stderr, /warning: The test command ran no tests/);
  });

  it('says the tests passed but the command failed (a coverage threshold), which is not a load error and not green', async () => {
    const capture = path.join(ROOT, 'test', 'fixtures', 'captured', 'jest', 'coverage-allpass.txt');
    const res = await runCli(['verify', '--cwd', tempDir('coverage'), '--test-cmd', `cat "${capture}"; exit 1`, '--tsc', 'off']);
    const w = JSON.parse(res.stdout);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(w.green, false);
    assert.strictEqual(w.loadError, false);
    assert.match(w.commandFailure, /^All 4 tests passed, but the test command exited with code 1; its last output:\n[\s\S]*Coverage for lines \(30%\) does not meet "global" threshold/);
  });

  it('says when the runner stopped early', async () => {
    const capture = path.join(ROOT, 'test', 'fixtures', 'captured', 'pytest', 'x-mixed.txt');
    const res = await runCli(['verify', '--cwd', tempDir('stopped'), '--test-cmd', `cat "${capture}"; exit 1`, '--tsc', 'off']);
    assert.match(JSON.parse(res.stdout).stoppedEarly, /pytest stopped after the first 1 failure/);
  });

  it('reports a test command that hangs as timed out, and kills it', async () => {
    const dir = tempDir('hang');
    dirs.push(dir);
    const pidFile = path.join(dir, 'pid');
    // 3 s: the shell surely writes its pid first, even on a busy machine; the 120 s sleep surely outlasts it.
    const res = await runCli(['verify', '--cwd', dir, '--test-cmd', `sh -c 'echo $$ > ${pidFile}; sleep 120'`, '--tsc', 'off', '--timeout-s', '3']);
    const w = JSON.parse(res.stdout);
    assert.strictEqual(res.code, 1);
    assert.strictEqual(w.timedOut, true);
    assert.strictEqual(w.green, false);
    assert.strictEqual(alive(Number(fs.readFileSync(pidFile, 'utf8'))), false, 'the hanging test command survived');
  });

  it('exits 2 with one line for each setup mistake', async () => {
    const empty = tempDir('empty');
    const placeholder = tempDir('placeholder');
    dirs.push(empty, placeholder);
    fs.writeFileSync(path.join(placeholder, 'package.json'), JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
    const cases: [string[], RegExp][] = [
      [['verify', '--cwd', path.join(empty, 'missing')], /does not exist/],
      [['verify', '--cwd', empty], /No test command.*--test-cmd/],
      [['verify', '--cwd', placeholder], /No test command/],
      [['verify', '--cwd', empty, '--test-cmd', 'no-such-runner-xyz --run', '--tsc', 'off'], /Test command not found: no-such-runner-xyz/],
      [['verify', '--cwd', empty, '--test-cmd', 'true', '--tsc', 'sometimes'], /--tsc must be auto, on or off/],
      [['verify', '--cwd', empty, '--test-cmd', 'true', '--tsc', 'on'], /no tsconfig\.json with a local TypeScript/],
      [['verify', '--cwd', empty, '--test-cmd', 'true', '--timeout-s=-4'], /--timeout-s must be/],
      [['verify', '--cwd', empty, '--test-cmd', 'true', '--timeout-s', '-4'], /argument is ambiguous/],
      [['verify', '--cwd', empty, '--frobnicate'], /Unknown option '--frobnicate'/],
    ];
    for (const [args, pattern] of cases) {
      const res = await runCli(args);
      assert.strictEqual(res.code, 2, `${args.join(' ')} → ${res.code}: ${res.stderr}`);
      assert.match(res.stderr, pattern);
      assert.strictEqual(res.stderr.trim().split('\n').length, 1, res.stderr);
    }
  });
});

describe('greenloop parse', function () {
  this.timeout(60_000);
  const captured = (p: string) => path.join(ROOT, 'test', 'fixtures', 'captured', p);

  it('prints the contract JSON for a captured file, auto-detecting the runner', async () => {
    const res = await runCli(['parse', captured('mocha/spec-mixed-color.txt')]);
    assert.strictEqual(res.code, 0, res.stderr);
    const out = JSON.parse(res.stdout);
    assert.strictEqual(out.runner, 'mocha');
    assert.deepStrictEqual(Object.keys(out).sort(), ['diagnostics', 'failedCount', 'failing', 'loadError', 'loadErrorFiles', 'loadErrors', 'passedCount', 'runner', 'skippedCount', 'tests']);
    assert.ok(out.failing.length > 0);
    assert.ok(out.failing.every((f: any) => typeof f.id === 'string' && typeof f.message === 'string'));
  });

  it('reads standard input with -', async () => {
    const text = fs.readFileSync(captured('tsc/plain-errors.txt'), 'utf8');
    const res = await runCli(['parse', '--format', 'tsc', '-'], { input: text });
    assert.strictEqual(res.code, 0, res.stderr);
    const out = JSON.parse(res.stdout);
    assert.ok(out.diagnostics.length > 0);
    assert.deepStrictEqual(out.failing, []);
  });

  it('exits 2 with one line for an unreadable file or an unknown format', async () => {
    for (const [args, pattern] of [
      [['parse', '/no/such/file.txt'], /Cannot read \/no\/such\/file\.txt: it does not exist/],
      [['parse', ROOT], /it is a folder/],
      [['parse', '--format', 'karma', captured('mocha/spec-mixed.txt')], /Unknown format "karma"/],
    ] as [string[], RegExp][]) {
      const res = await runCli(args);
      assert.strictEqual(res.code, 2);
      assert.match(res.stderr, pattern);
      assert.strictEqual(res.stderr.trim().split('\n').length, 1);
    }
  });
});

// Which fixer a check has (verify/fixers/fixerCommand.ts): the check's own program asked to fix, with the options that
// choose its rules kept and its output options left out, on the files its errors name; only where the workspace's
// own configuration enables the tool; a check's own `:fix=FIXCMD` as written. And `gofmt -l` read as a check.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixerOf } from '../../../src/verify/fixers/fixerCommand';
import { parseCheckSpec, checkSpecFromSetting } from '../../../src/verify/checkers/checkSpec';
import { readCheck } from '../../../src/verify/checkers/commandChecker';
import type { RunResult } from '../../../src/base/process/runCommand';

function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-fixer-'));
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text);
  return dir;
}

function command(check: string, files: Record<string, string>, fixed: string[] = ['src/a.js']): string {
  const choice = fixerOf(parseCheckSpec(check), workspace(files));
  assert.ok(choice.ok, choice.ok ? '' : choice.why);
  return choice.fixer.command(fixed);
}

describe('fixers: the check\'s own tool asked to fix, never with rules Greenloop invents', () => {
  it('ESLint: the wrapper and the config options kept, the output format dropped, the files named', () => {
    const files = { 'eslint.config.mjs': 'export default [];\n' };
    assert.strictEqual(command('npx eslint --format json -c strict.config.mjs --max-warnings 0 src', files), 'npx eslint -c strict.config.mjs --fix src/a.js');
    assert.strictEqual(command("npx eslint -f json --rule 'prefer-const: error' src:eslint", files, ['src/my file.js']), "npx eslint --rule 'prefer-const: error' --fix 'src/my file.js'");
  });

  it('Biome, oxlint, clippy and gofmt each get their own fix command', () => {
    assert.strictEqual(command('node_modules/.bin/biome lint --reporter=json src', { 'biome.json': '{}' }), 'node_modules/.bin/biome check --write src/a.js');
    assert.strictEqual(command('oxlint --format json -D no-debugger --import-plugin src', { '.oxlintrc.json': '{}' }), 'oxlint -D no-debugger --import-plugin --fix src/a.js');
    assert.strictEqual(command('cargo clippy --offline --message-format=json -p core -- -D warnings', { 'Cargo.toml': '' }, ['src/lib.rs']), 'cargo clippy --fix --allow-dirty --allow-staged --offline -p core -- -D warnings');
    assert.strictEqual(command('gofmt -s -l .', {}, ['a.go', 'b/c.go']), 'gofmt -s -w a.go b/c.go');
  });

  it('only where the workspace\'s own configuration enables the tool (a config file or a package.json script)', () => {
    const none = fixerOf(parseCheckSpec('npx eslint --format json src'), workspace({}));
    assert.ok(!none.ok);
    assert.match(none.why, /does not enable ESLint/);
    assert.ok(!fixerOf(parseCheckSpec('oxlint --format json src'), workspace({ 'package.json': '{"scripts":{"lint":"eslint ."}}' })).ok);
    assert.ok(fixerOf(parseCheckSpec('oxlint --format json src'), workspace({ 'package.json': '{"scripts":{"lint":"oxlint src"}}' })).ok);
    assert.ok(fixerOf(parseCheckSpec('npx eslint --format json src'), workspace({ 'package.json': '{"eslintConfig":{}}' })).ok);
    // cargo check has no fixer (only clippy's lints come with one); mypy has none at all.
    assert.ok(!fixerOf(parseCheckSpec('cargo check --message-format=json'), workspace({ 'Cargo.toml': '' })).ok);
    assert.ok(!fixerOf(parseCheckSpec('mypy app'), workspace({})).ok);
    // A check whose command does not name the tool (a script) cannot be turned into its fixer; it can name one.
    assert.match((fixerOf(parseCheckSpec('npm run lint:eslint'), workspace({ 'eslint.config.mjs': '' })) as { why: string }).why, /does not name ESLint's program/);
  });

  it('CMD:format:fix=FIXCMD names the fixer, colons and all; a setting object does with "fix"', () => {
    const spec = parseCheckSpec('npm run lint:eslint:fix=npm run lint:fix');
    assert.deepStrictEqual(spec, { command: 'npm run lint', format: 'eslint', fix: 'npm run lint:fix' });
    assert.strictEqual(command('npm run lint:eslint:fix=npm run lint:fix', {}), 'npm run lint:fix');
    assert.deepStrictEqual(checkSpecFromSetting({ command: 'mypy app', format: 'mypy', fix: 'ruff check --fix app' }), { command: 'mypy app', format: 'mypy', fix: 'ruff check --fix app' });
    assert.throws(() => parseCheckSpec('npx eslint src:fix= '), /empty fixer/);
    assert.throws(() => checkSpecFromSetting({ command: 'mypy app', fix: 3 }), /"fix" must be the fixer's command/);
  });
});

describe('gofmt -l as a check', () => {
  const run = (output: string, exitCode = 0): RunResult => ({ output, droppedBytes: 0, exitCode, signal: null, timedOut: false, cancelled: false, durationMs: 5, notFound: false });

  it('each file it lists is one finding; its silence is clean', () => {
    const listed = readCheck({ command: 'gofmt -l .' }, run('a.go\nsub/b.go\n'), '/w');
    assert.ok(listed.ok);
    assert.deepStrictEqual(listed.report.diagnostics.map((d) => [d.file, d.source]), [['a.go', 'gofmt'], ['sub/b.go', 'gofmt']]);
    const clean = readCheck({ command: 'gofmt -l .' }, run(''), '/w');
    assert.ok(clean.ok);
    assert.strictEqual(clean.report.diagnostics.length, 0);
  });

  it('a syntax error (gofmt exits 2 and says where) is no clean result', () => {
    const broken = readCheck({ command: 'gofmt -l .' }, run('a.go:3:1: expected declaration, found x\n', 2), '/w');
    assert.ok(!broken.ok || broken.report.diagnostics.some((d) => d.file === 'a.go' && /expected declaration/.test(d.message)), JSON.stringify(broken));
  });
});

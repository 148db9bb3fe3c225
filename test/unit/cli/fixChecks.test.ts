// `--check` end to end, one loop per checker family: a project whose tests pass and whose checker reports one error,
// a scripted model that fixes it, the real checker judging each state (the npm tools from the cache
// test/fixtures/regenerate/checkers.sh fills, the others from Debian or rustup). Green only once the checker is clean.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';
import { needToolchain, toolchainOf } from '../support/toolchains';

const CACHE = process.env.GREENLOOP_CHECKERS_CACHE ?? path.join(os.homedir(), '.cache', 'greenloop-checkers');

interface Family {
  name: string;
  /** What must be installed: an npm tool in the cache, or a program on PATH. */
  needs: { npm: string } | { program: string };
  files: Record<string, string>;
  check: string;
  /** What the checker's diagnostic is called (its `source`) and a word of its message. */
  source: string | RegExp;
  message: RegExp;
  fix: string;
  /** Run in the project before the loop (a lock file the checker would otherwise write). */
  prepare?: string[];
}

const FAMILIES: Family[] = [
  {
    name: 'ESLint', needs: { npm: 'eslint' },
    files: { 'eslint.config.mjs': "export default [{ files: ['**/*.js'], rules: { 'no-unused-vars': 'error' } }];\n", 'src/a.js': "'use strict';\nconst unused = 1;\nmodule.exports = { one: 1 };\n" },
    check: 'node_modules/.bin/eslint --format json src', source: 'eslint', message: /unused/,
    fix: edit('src/a.js', "const unused = 1;\nmodule.exports = { one: 1 };", 'module.exports = { one: 1 };'),
  },
  {
    name: 'Biome', needs: { npm: 'biome' },
    files: { 'biome.json': '{ "linter": { "enabled": true, "rules": { "recommended": true, "suspicious": { "noDoubleEquals": "error" } } } }\n', 'src/a.js': 'module.exports = (x) => x == 1;\n' },
    check: 'node_modules/.bin/biome lint --reporter=json src', source: 'biome', message: /==|equal/i,
    fix: edit('src/a.js', 'module.exports = (x) => x == 1;', 'module.exports = (x) => x === 1;'),
  },
  {
    name: 'oxlint', needs: { npm: 'oxlint' },
    files: { 'src/a.js': 'module.exports = (x) => {\n  debugger;\n  return x;\n};\n' },
    check: 'node_modules/.bin/oxlint --format json -D no-debugger src', source: 'oxlint', message: /debugger/,
    fix: edit('src/a.js', '  debugger;\n  return x;', '  return x;'),
  },
  {
    name: 'pyright', needs: { npm: 'pyright' },
    files: { 'app/a.py': 'def f(x: int) -> str:\n    return x\n' },
    check: 'node_modules/.bin/pyright --outputjson app', source: 'pyright', message: /not assignable|incompatible/i,
    fix: edit('app/a.py', '    return x', '    return str(x)'),
  },
  {
    name: 'mypy', needs: { program: 'mypy' },
    files: { 'app/a.py': 'def f(x: int) -> str:\n    return x\n' },
    check: 'mypy app', source: 'mypy', message: /Incompatible return value/,
    fix: edit('app/a.py', '    return x', '    return str(x)'),
  },
  {
    name: 'pylint', needs: { program: 'pylint' },
    files: { 'app/a.py': '"""A module."""\n\n\ndef f():\n    """Return one."""\n    return undefined_name\n' },
    check: 'pylint --output-format=json app', source: 'pylint', message: /undefined_name/,
    fix: edit('app/a.py', '    return undefined_name', '    return 1'),
  },
  {
    name: 'go vet', needs: { program: 'go' },
    files: { 'go.mod': 'module example.com/a\n\ngo 1.19\n', 'a.go': 'package a\n\nimport "fmt"\n\n// F prints.\nfunc F() { fmt.Printf("%d\\n", "x") }\n' },
    check: 'go vet ./...', source: /vet/, message: /%d/,
    fix: edit('a.go', 'func F() { fmt.Printf("%d\\n", "x") }', 'func F() { fmt.Printf("%s\\n", "x") }'),
  },
  {
    name: 'cargo check', needs: { program: 'cargo' },
    files: { 'Cargo.toml': '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': 'pub fn f() -> u32 {\n    "x"\n}\n' },
    check: 'cargo check --offline --message-format=json', source: 'rustc', message: /mismatched types/,
    fix: edit('src/lib.rs', '    "x"', '    1'),
    prepare: ['cargo', 'generate-lockfile', '--offline'],
  },
  {
    name: 'cargo clippy', needs: { program: 'cargo-clippy' },
    files: { 'Cargo.toml': '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': 'pub fn f(x: u8) -> bool {\n    x > 255\n}\n' },
    check: 'cargo clippy --offline --message-format=json', source: 'clippy', message: /comparison/,
    fix: edit('src/lib.rs', '    x > 255', '    x == 255'),
    prepare: ['cargo', 'generate-lockfile', '--offline'],
  },
  {
    name: 'gcc (the GCC-style fallback)', needs: { program: 'gcc' },
    files: { 'a.c': 'int f(void) {\n  return x;\n}\n' },
    // gcc prints nothing when clean: the format is named, so its silence can be read as clean.
    check: 'gcc -fsyntax-only -Wall a.c:gcc', source: 'gcc', message: /undeclared/,
    fix: edit('a.c', '  return x;', '  return 0;'),
  },
];


describe('greenloop fix --check: from checker errors to clean, one loop per checker family (real CLI, scripted model)', function () {
  this.timeout(240_000);
  let h: FixHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const family of FAMILIES) {
    it(`${family.name}: its error keeps the run from green until the model fixes it${family.name === 'pyright' ? ' @heavy' : ''}`, async function () {
      needToolchain(toolchainOf(family.needs));
      h = await fixHarness('checks');
      for (const [rel, text] of Object.entries(family.files)) h.write(rel, text);
      if ('npm' in family.needs) fs.symlinkSync(path.join(CACHE, 'node_modules'), path.join(h.project, 'node_modules'));
      if (family.prepare) execFileSync(family.prepare[0], family.prepare.slice(1), { cwd: h.project, stdio: 'pipe' });
      const res = await h.fix([answer(family.fix)], ['--check', family.check, '--max-iterations', '2']);
      assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations ?? res.stdout)}`);
      assert.strictEqual(res.report.outcome, 'green');
      assert.strictEqual(res.report.baseline.diagnostics, 1, 'the baseline has exactly the one error (warnings do not count)');
      assert.strictEqual(res.report.final.diagnostics, 0);
      assert.deepStrictEqual(res.report.iterations.map((it: { verdict: string }) => it.verdict), ['green']);
      const prompt = h.prompt(0);
      assert.match(prompt, family.message, 'the first prompt shows the checker error');
      const source = typeof family.source === 'string' ? new RegExp(`\\b${family.source}\\b`) : family.source;
      assert.match(prompt, source, 'the prompt names the checker');
    });
  }

  it('a check whose output says nothing (gcc without its format named) is never read as clean', async () => {
    h = await fixHarness('checks');
    h.write('a.c', 'int f(void) {\n  return 0;\n}\n');
    const res = await h.fix([], ['--check', 'gcc -fsyntax-only -Wall a.c']);
    assert.strictEqual(res.code, 1, res.stdout);
    assert.match(res.report.reasonText, /printed nothing, so what it checked cannot be known/);
    assert.strictEqual(h.server.requests.length, 0);
  });

  it('a check that is not installed makes the first run unreadable: the run does not start, and says why in one sentence', async () => {
    h = await fixHarness('checks');
    const res = await h.fix([], ['--check', 'no-such-linter-xyz --json src']);
    assert.strictEqual(res.code, 1, res.stdout);
    assert.strictEqual(res.report.reason, 'verify-error');
    assert.match(res.report.reasonText, /^The check command `no-such-linter-xyz --json src` cannot run: `no-such-linter-xyz` is not installed or not on PATH; install it or fix the command\. Nothing to compare attempts against\.$/);
    assert.strictEqual(h.server.requests.length, 0, 'no model call on a witness nobody can read');
  });
});

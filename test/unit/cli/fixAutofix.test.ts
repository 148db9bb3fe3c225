// Zero-token fixes first (issue 33): before the first model call the project's own fixer of each failing check runs
// as attempt 0 (`actor: "autofix"`), judged like any edit. One real case per fixer family (ESLint, Biome, oxlint,
// clippy, gofmt): lint-only failures end green with no model call. A real fixer whose change breaks a test is rolled
// back and the model reads the original errors; a fixer that adds a suppression is refused; `--autofix off` and a
// fixer that is not installed leave the errors to the model. Tools come from the cache the checker tests use
// (test/fixtures/regenerate/checkers.sh) or from PATH; a test whose tool is missing is pending with its name.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';

const CACHE = process.env.GREENLOOP_CHECKERS_CACHE ?? path.join(os.homedir(), '.cache', 'greenloop-checkers');
const ESLINT_CHECK = 'node_modules/.bin/eslint --format json src';

interface Family {
  name: string;
  needs: { npm: string } | { program: string };
  files: Record<string, string>;
  check: string;
  /** The file the fixer rewrites, and what it holds afterwards. */
  fixed: { file: string; text: string };
  /** A word of the fixer command as the report shows it. */
  command: RegExp;
  prepare?: string[];
}

const FAMILIES: Family[] = [
  {
    name: 'ESLint --fix', needs: { npm: 'eslint' },
    files: { 'eslint.config.mjs': "export default [{ files: ['**/*.js'], rules: { 'prefer-const': 'error' } }];\n", 'src/a.js': "'use strict';\nlet one = 1;\nmodule.exports = { one };\n" },
    check: ESLINT_CHECK, fixed: { file: 'src/a.js', text: "'use strict';\nconst one = 1;\nmodule.exports = { one };\n" },
    command: /^node_modules\/\.bin\/eslint --fix src\/a\.js$/,
  },
  {
    name: 'Biome check --write', needs: { npm: 'biome' },
    files: { 'biome.json': '{ "linter": { "enabled": true, "rules": { "recommended": false, "style": { "useConst": "error" } } } }\n', 'src/a.js': 'let one = 1;\nmodule.exports = { one };\n' },
    check: 'node_modules/.bin/biome lint --reporter=json src', fixed: { file: 'src/a.js', text: 'const one = 1;\nmodule.exports = { one };\n' },
    command: /^node_modules\/\.bin\/biome check --write src\/a\.js$/,
  },
  {
    name: 'oxlint --fix', needs: { npm: 'oxlint' },
    files: { '.oxlintrc.json': '{ "rules": { "no-useless-rename": "error" } }\n', 'src/a.js': 'const { b: b } = { b: 2 };\nmodule.exports = b;\n' },
    check: 'node_modules/.bin/oxlint --format json src', fixed: { file: 'src/a.js', text: 'const { b } = { b: 2 };\nmodule.exports = b;\n' },
    command: /^node_modules\/\.bin\/oxlint --fix src\/a\.js$/,
  },
  {
    name: 'cargo clippy --fix', needs: { program: 'cargo-clippy' },
    files: { 'Cargo.toml': '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': 'pub fn f(x: u32) -> u32 {\n    return x + 1;\n}\n' },
    // needless_return is a warning; the check's own `-D warnings` makes it an error, and the fixer keeps that.
    check: 'cargo clippy --offline --message-format=json -- -D warnings', fixed: { file: 'src/lib.rs', text: 'pub fn f(x: u32) -> u32 {\n    x + 1\n}\n' },
    command: /^cargo clippy --fix --allow-dirty --allow-staged --offline -- -D warnings$/,
    prepare: ['cargo', 'generate-lockfile', '--offline'],
  },
  {
    name: 'gofmt -w (a gofmt -l check)', needs: { program: 'gofmt' },
    files: { 'go.mod': 'module example.com/a\n\ngo 1.19\n', 'a.go': 'package a\n\nfunc F()   int {\n return 1 }\n' },
    check: 'gofmt -l .', fixed: { file: 'a.go', text: 'package a\n\nfunc F() int {\n\treturn 1\n}\n' },
    command: /^gofmt -w a\.go$/,
  },
];

function installed(needs: Family['needs']): string | null {
  if ('npm' in needs) return fs.existsSync(path.join(CACHE, 'node_modules', '.bin', needs.npm)) ? null : `${needs.npm} is not in ${CACHE} (run test/fixtures/regenerate/checkers.sh)`;
  try {
    execFileSync('sh', ['-c', `command -v ${needs.program}`], { stdio: 'pipe' });
    return null;
  } catch {
    return `${needs.program} is not installed`;
  }
}

async function project(family: Pick<Family, 'files' | 'needs' | 'prepare'>): Promise<FixHarness> {
  const h = await fixHarness('checks');
  for (const [rel, text] of Object.entries(family.files)) h.write(rel, text);
  if ('npm' in family.needs) fs.symlinkSync(path.join(CACHE, 'node_modules'), path.join(h.project, 'node_modules'));
  if (family.prepare) execFileSync(family.prepare[0], family.prepare.slice(1), { cwd: h.project, stdio: 'pipe' });
  return h;
}

type Iteration = { n: number; verdict: string; actor?: string; rolledBack: boolean; note: string; commands?: Array<{ tool: string; command: string; ms: number }> };

describe('greenloop fix: the project\'s own fixers first, judged like any edit (real fixers, scripted model)', function () {
  this.timeout(240_000);
  let h: FixHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const family of FAMILIES) {
    it(`${family.name}: a lint-only failure ends green with zero model calls`, async function () {
      if (installed(family.needs)) this.skip();
      h = await project(family);
      const res = await h.fix([], ['--check', family.check]);
      assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations ?? res.stdout)}`);
      assert.strictEqual(res.report.outcome, 'green');
      assert.strictEqual(res.report.baseline.diagnostics, 1);
      assert.strictEqual(res.report.llmCalls, 0);
      assert.deepStrictEqual(res.report.tokens, { prompt: 0, completion: 0 });
      assert.strictEqual(h.server.requests.length, 0, 'the model was never asked');
      const [zero, ...rest] = res.report.iterations as Iteration[];
      assert.deepStrictEqual(rest, []);
      assert.strictEqual(zero.n, 0);
      assert.strictEqual(zero.actor, 'autofix');
      assert.strictEqual(zero.verdict, 'green');
      assert.strictEqual(zero.commands?.length, 1);
      assert.match(zero.commands![0].command, family.command);
      assert.ok(zero.commands![0].ms >= 0);
      assert.strictEqual(h.read(family.fixed.file), family.fixed.text);
      assert.match(res.stderr, /greenloop: autofix: green/);
    });
  }

  it('a real fixer whose change breaks a test is rolled back, and the model reads the original errors (not counted as an attempt)', async function () {
    if (installed({ npm: 'eslint' })) this.skip();
    // object-shorthand turns `Point: function` into a method, which is no constructor: ESLint's fix breaks the test.
    const source = "'use strict';\nmodule.exports = {\n  Point: function (x, y) {\n    this.x = x;\n    this.y = y;\n  },\n};\n";
    h = await project({
      needs: { npm: 'eslint' },
      files: {
        'eslint.config.mjs': "export default [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, rules: { 'object-shorthand': 'error' } }];\n",
        'src/shapes.js': source,
        'test/shapes.test.js': "'use strict';\nconst { test } = require('node:test');\nconst assert = require('node:assert');\nconst shapes = require('../src/shapes');\n\ntest('a Point is made with new', () => assert.strictEqual(new shapes.Point(1, 2).x, 1));\n",
      },
    });
    // The model's SEARCH is the original text: it only lands if the fixer's change was undone first.
    const fix = edit('src/shapes.js', '  Point: function (x, y) {\n    this.x = x;\n    this.y = y;\n  },', '  Point: class {\n    constructor(x, y) {\n      this.x = x;\n      this.y = y;\n    }\n  },');
    const res = await h.fix([answer(fix)], ['--check', ESLINT_CHECK, '--max-iterations', '1']);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations ?? res.stdout)}`);
    const [zero, one] = res.report.iterations as Iteration[];
    assert.strictEqual(zero.actor, 'autofix');
    assert.strictEqual(zero.verdict, 'regression');
    assert.strictEqual(zero.rolledBack, true);
    assert.match(zero.note, /a Point is made with new/);
    assert.strictEqual(one.n, 1);
    assert.strictEqual(one.verdict, 'green');
    assert.strictEqual(res.report.llmCalls, 1);
    const prompt = h.prompt(0);
    assert.match(prompt, /Attempt 1 of 1/, 'the fixers did not use the one attempt of the budget');
    assert.match(prompt, /Expected method shorthand/, 'the model reads the original error');
    assert.match(prompt, /project's own fixers ran first[\s\S]*undone/);
    assert.match(prompt, /Point: function \(x, y\)/, 'the model reads the file as it was before the fixer');
  });

  it('a fixer that adds a suppression is refused like any edit: the file is put back and the model gets the error', async function () {
    if (installed({ npm: 'eslint' })) this.skip();
    const source = "'use strict';\nlet one = 1;\nmodule.exports = { one };\n";
    h = await project({
      needs: { npm: 'eslint' },
      files: { 'eslint.config.mjs': "export default [{ files: ['**/*.js'], rules: { 'prefer-const': 'error' } }];\n", 'src/a.js': source },
    });
    // A check that names its own fixer: this one silences ESLint instead of fixing the code.
    const check = `${ESLINT_CHECK}:eslint:fix=sed -i '1i /* eslint-disable */' src/a.js`;
    const res = await h.fix([answer(edit('src/a.js', 'let one = 1;', 'const one = 1;'))], ['--check', check]);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations ?? res.stdout)}`);
    const [zero, one] = res.report.iterations as Iteration[];
    assert.strictEqual(zero.actor, 'autofix');
    assert.strictEqual(zero.verdict, 'invalid-proposal');
    assert.match(zero.note, /eslint-disable/);
    assert.match(zero.commands![0].command, /^sed -i/);
    assert.strictEqual(one.verdict, 'green');
    assert.strictEqual(res.report.llmCalls, 1);
    assert.match(h.prompt(0), /change was refused/);
    assert.doesNotMatch(h.read('src/a.js'), /eslint-disable/);
  });

  it('--autofix off, and a fixer that is not installed: the model gets the errors, the missing fixer is one sentence', async function () {
    if (installed({ npm: 'eslint' })) this.skip();
    const files = { 'eslint.config.mjs': "export default [{ files: ['**/*.js'], rules: { 'prefer-const': 'error' } }];\n", 'src/a.js': "'use strict';\nlet one = 1;\nmodule.exports = { one };\n" };
    const fix = edit('src/a.js', 'let one = 1;', 'const one = 1;');
    h = await project({ needs: { npm: 'eslint' }, files });
    const off = await h.fix([answer(fix)], ['--check', ESLINT_CHECK, '--autofix', 'off']);
    assert.strictEqual(off.code, 0, off.stderr);
    assert.deepStrictEqual((off.report.iterations as Iteration[]).map((it) => [it.n, it.actor ?? 'model']), [[1, 'model']]);
    assert.strictEqual(off.report.llmCalls, 1);
    await h.close();

    h = await project({ needs: { npm: 'eslint' }, files });
    const missing = await h.fix([answer(fix)], ['--check', `${ESLINT_CHECK}:eslint:fix=no-such-fixer-xyz --fix src`]);
    assert.strictEqual(missing.code, 0, missing.stderr);
    assert.deepStrictEqual((missing.report.iterations as Iteration[]).map((it) => [it.n, it.actor ?? 'model']), [[1, 'model']], 'a fixer that changed nothing is no attempt');
    assert.ok(missing.report.warnings.some((w: string) => /^no-such-fixer-xyz's fixer `no-such-fixer-xyz --fix src` cannot run: .*not installed/.test(w)), JSON.stringify(missing.report.warnings));
  });
});

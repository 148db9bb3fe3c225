// Zero-token fixes first (issue 33): before the first model call the project's own fixer of each failing check runs
// as attempt 0 (`actor: "autofix"`), judged like any edit. One real case per fixer family (ESLint, Biome, oxlint,
// clippy, gofmt, and issue 39's clang-format and RuboCop): lint-only failures end green with no model call. How a
// fixer's change is judged (rolled back, refused, turned off, not installed) is fixAutofixJudged.test.ts. Tools come
// from the cache the checker tests use (test/fixtures/regenerate/checkers.sh) or from Debian's packages
// (scripts/toolchains.sh); a test whose tool cannot be had fails with its name.
import * as assert from 'assert';
import type { FixHarness } from '../support/fixHarness';
import { ESLINT_CHECK, ensureInstalled, project, type Family, type Iteration } from '../support/autofixProjects';
import { READERS } from '../../../src/verify/checkers/readerChoice';

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
  {
    // A C++ file one space off the project's .clang-format; the check is read as GCC-style lines.
    name: 'clang-format -i (a clang-format --dry-run -Werror check)', needs: { program: 'clang-format' },
    files: { '.clang-format': 'BasedOnStyle: LLVM\n', 'src/add.cpp': 'int add(int a, int b) { return a  + b; }\n' },
    check: 'clang-format --dry-run -Werror src/*.cpp', fixed: { file: 'src/add.cpp', text: 'int add(int a, int b) { return a + b; }\n' },
    command: /^clang-format -i src\/add\.cpp$/,
  },
  {
    // One cop, made an error by the project's own .rubocop.yml; RuboCop's safe correction removes the `return`.
    name: 'rubocop -a (a rubocop --format json check)', needs: { program: 'rubocop' }, reader: 'rubocop',
    files: {
      '.rubocop.yml': 'AllCops:\n  DisabledByDefault: true\n  NewCops: disable\n  SuggestExtensions: false\nStyle/RedundantReturn:\n  Enabled: true\n  Severity: error\n',
      'lib/greet.rb': '# frozen_string_literal: true\n\ndef greet(name)\n  return "hello #{name}"\nend\n',
    },
    check: 'rubocop --format json lib', fixed: { file: 'lib/greet.rb', text: '# frozen_string_literal: true\n\ndef greet(name)\n  "hello #{name}"\nend\n' },
    command: /^rubocop -a lib\/greet\.rb$/,
  },
];

describe('greenloop fix: the project\'s own fixers first, judged like any edit (real fixers, scripted model)', function () {
  this.timeout(240_000);
  let h: FixHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const family of FAMILIES) {
    it(`${family.name}: a lint-only failure ends green with zero model calls${family.name.startsWith('cargo') ? ' @heavy' : ''}`, async function () {
      ensureInstalled(family.needs);
      if (family.reader) assert.ok(READERS.some((r) => r.format === family.reader), `this test needs the "${family.reader}" checker reader (issue 39's linters), which this build lacks`);
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
});

// Suppression directives of every family, found where their tool reads them and only when the edit adds them.
import { strict as assert } from 'assert';
import { addedSuppressions, findSuppressions, suppressionRefusal } from '../../../src/core/edits/suppressions';

const directives = (rel: string, before: string | null, after: string): string[] => addedSuppressions(rel, before, after).map((s) => s.directive);

describe('added suppression directives', () => {
  const TS_BEFORE = 'export function cents(n: number): string {\n  const c: number = n.toFixed(2);\n  return String(c);\n}\n';

  it('each TypeScript directive above the error, and @ts-nocheck at the top, is found with its line', () => {
    for (const [directive, at] of [['// @ts-ignore', 1], ['// @ts-expect-error', 1], ['/* @ts-ignore */', 1]] as const) {
      const lines = TS_BEFORE.split('\n');
      lines.splice(at, 0, `  ${directive}`);
      const found = addedSuppressions('src/money.ts', TS_BEFORE, lines.join('\n'));
      assert.equal(found.length, 1, directive);
      assert.equal(found[0].line, 2);
      assert.deepEqual(found[0].tools, ['tsc']);
    }
    assert.deepEqual(directives('src/money.ts', TS_BEFORE, `// @ts-nocheck\n${TS_BEFORE}`), ['@ts-nocheck']);
    assert.deepEqual(directives('src/money.tsx', TS_BEFORE, `/**\n * @ts-nocheck\n */\n${TS_BEFORE}`), ['@ts-nocheck']);
  });

  it("RuboCop's and Standard's disables in Ruby comments (after code, or chained), never in a string", () => {
    const before = 'def total(items)\n  items.sum\nend\n';
    const after = [
      '# rubocop:disable Metrics/MethodLength',
      'def total(items)',
      '  items.sum # rubocop:disable Style/Sum',
      '  x = "# rubocop:disable all"',
      '  y = 1 # a note # rubocop:todo Lint/UselessAssignment',
      '  # standard:disable Style/StringLiterals',
      'end',
    ].join('\n');
    assert.deepEqual(directives('lib/ledger/book.rb', before, after), [
      'rubocop:disable Metrics/MethodLength', 'rubocop:disable Style/Sum', 'rubocop:todo Lint/UselessAssignment', 'standard:disable Style/StringLiterals',
    ]);
    assert.deepEqual(addedSuppressions('Rakefile.rake', '', '# rubocop:disable all\n')[0].tools, ['rubocop']);
  });

  it('ESLint, Biome and oxlint directives, with their arguments', () => {
    const after = [
      '/* eslint-disable */',
      '// eslint-disable-next-line no-console',
      'console.log(x); // eslint-disable-line',
      '/* eslint no-console: "off" */',
      '// biome-ignore lint/suspicious/noDebugger: later',
      '// biome-ignore-all lint: generated',
      '// oxlint-disable-next-line no-debugger',
      'debugger;',
    ].join('\n');
    assert.deepEqual(directives('src/a.js', '', after), [
      'eslint-disable', 'eslint-disable-next-line no-console', 'eslint-disable-line', 'eslint no-console: "off"',
      'biome-ignore lint/suspicious/noDebugger: later', 'biome-ignore-all lint: generated', 'oxlint-disable-next-line no-debugger',
    ]);
    assert.deepEqual(directives('src/App.vue', '', '<template>\n  <!-- eslint-disable-next-line vue/no-v-html -->\n  <div v-html="x" />\n</template>'), ['eslint-disable-next-line vue/no-v-html']);
  });

  it('Python: type: ignore, noqa, pyright, pylint, mypy file-level, chained comments', () => {
    const after = [
      'x: int = "1"  # type: ignore[assignment]',
      'y = f()  # noqa: E501',
      'z = g()  # pyright: ignore[reportCallIssue]',
      'w = h()  # pylint: disable=no-member',
      'v = k()  # noqa  # type: ignore',
      '# mypy: ignore-errors',
      '# pyright: basic',
      '# ruff: noqa',
    ].join('\n');
    assert.deepEqual(directives('app/m.py', null, after), [
      'type: ignore[assignment]', 'noqa: E501', 'pyright: ignore[reportCallIssue]', 'pylint: disable=no-member', 'type: ignore', 'noqa',
      'mypy: ignore-errors', 'pyright: basic', 'ruff: noqa',
    ]);
  });

  it('Rust attributes in code (inner and outer, cfg_attr), Go and C comments', () => {
    assert.deepEqual(directives('src/lib.rs', '', '#![allow(clippy::all)]\n#[allow(unused_variables)]\nfn f() {}\n#[cfg_attr(test, allow(dead_code))]\n#[expect(unused)]\nfn g() {}'), [
      '#![allow(clippy::all)]', '#[allow(unused_variables)]', '#[cfg_attr(test, allow(dead_code))]', '#[expect(unused)]',
    ]);
    assert.deepEqual(directives('main.go', '', 'x := f() //nolint:errcheck\n//lint:ignore SA1019 old API\ny := g()'), ['//nolint:errcheck', '//lint:ignore SA1019 old API']);
    assert.deepEqual(directives('a.c', '', 'int x; // NOLINT\n#pragma GCC diagnostic ignored "-Wunused"'), ['NOLINT', '#pragma GCC diagnostic ignored ""']);
  });

  it('Java and Kotlin: @SuppressWarnings and @Suppress as written, the linters\' comments; never in a string or a comment\'s prose', () => {
    const before = 'class Version {\n  // never add @SuppressWarnings here\n  String s = "@SuppressWarnings(\\"all\\")";\n  int f() { return 1; }\n}\n';
    const after = before.replace('  int f()', '  @SuppressWarnings({"unchecked", "rawtypes"})\n  @edu.umd.cs.findbugs.annotations.SuppressFBWarnings("NP")\n  int f()').replace('return 1; }', 'return 1; } // NOPMD');
    assert.deepEqual(directives('src/main/java/org/example/Version.java', before, after), ['@SuppressWarnings({"unchecked", "rawtypes"})', '@edu.umd.cs.findbugs.annotations.SuppressFBWarnings("NP")', 'NOPMD']);
    assert.deepEqual(directives('src/main/kotlin/Version.kt', '', '@file:Suppress("UNCHECKED_CAST")\nfun f() = 1 // CHECKSTYLE:OFF\n'), ['@file:Suppress("UNCHECKED_CAST")', 'CHECKSTYLE:OFF']);
    assert.deepEqual(directives('src/main/java/A.java', '', 'String help = "@SuppressWarnings(\\"x\\")";\n// prose about @SuppressWarnings'), []);
    const refusal = suppressionRefusal('src/main/java/A.java', addedSuppressions('src/main/java/A.java', 'class A {}\n', '@SuppressWarnings("unchecked")\nclass A {}\n'), []);
    assert.match(refusal ?? '', /^src\/main\/java\/A\.java: the edit adds a suppression `@SuppressWarnings\("unchecked"\)` \(line 1\), which would hide what javac reports/);
  });

  it('never in a string, a docstring, prose, or a file no checker reads', () => {
    assert.deepEqual(directives('src/a.ts', '', 'const help = "add // @ts-ignore to hide it";\nconst t = `\n// eslint-disable\n`;'), []);
    assert.deepEqual(directives('src/a.ts', '', '// we never use @ts-ignore here\n// see eslint-disable docs'), []);
    assert.deepEqual(directives('app/m.py', '', 'def f():\n    """Never write # type: ignore here."""\n    s = "# noqa"\n    return s'), []);
    assert.deepEqual(directives('src/lib.rs', '', 'let s = "#[allow(dead_code)]";\n// #[allow(unused)] was removed'), []);
    assert.deepEqual(directives('main.go', '', '// nolint is prose here\ns := "//nolint"'), []);
    assert.deepEqual(directives('README.md', '', 'Add `// @ts-ignore` or `# type: ignore` and the checker is quiet.'), []);
    assert.deepEqual(directives('src/a.ts', '', '// eslint config: flat'), []);
  });

  it('a suppression already there, or moved, is not added; a copy of it is', () => {
    const before = 'a();\n// @ts-ignore\nb();\nc();\n';
    assert.deepEqual(directives('x.ts', before, before.replace('b();', 'bb();')), []);
    assert.deepEqual(directives('x.ts', before, 'a();\nb();\n// @ts-ignore\nc();\n'), []);
    const copied = addedSuppressions('x.ts', before, 'a();\n// @ts-ignore\nb();\n// @ts-ignore\nc();\n');
    assert.deepEqual(copied.map((s) => s.line), [4]);
    // Editing code on a line that already carries a trailing suppression does not add one.
    assert.deepEqual(directives('m.py', 'x = f()  # type: ignore\n', 'x = g()  # type: ignore\n'), []);
    // Widening one does.
    assert.deepEqual(directives('m.py', 'x = f()  # type: ignore[attr-defined]\n', 'x = f()  # type: ignore\n'), ['type: ignore']);
  });

  it('the refusal is one sentence naming the directives, their lines and what to do', () => {
    const found = addedSuppressions('src/money.ts', TS_BEFORE, `// @ts-nocheck\n${TS_BEFORE}`);
    assert.equal(suppressionRefusal('src/money.ts', found),
      'src/money.ts: the edit adds a suppression `@ts-nocheck` (line 1), which would hide what TypeScript reports instead of fixing it; fix the code so the checker passes without it.');
    assert.equal(suppressionRefusal('src/money.ts', []), null);
    const many = findSuppressions('a.py', 'a  # noqa\nb  # noqa: E1\nc  # noqa: E2\nd  # type: ignore\n');
    assert.match(suppressionRefusal('a.py', many) ?? '', /suppressions .* and 1 more, which would hide what flake8\/Ruff, mypy, pyright reports/);
  });

  it('names the checker the run has: `# type: ignore` under a pyright check says pyright, not mypy', () => {
    const found = addedSuppressions('app/m.py', 'x: int = "1"\n', 'x: int = "1"  # type: ignore\n');
    assert.equal(suppressionRefusal('app/m.py', found, ['pyright']),
      'app/m.py: the edit adds a suppression `type: ignore` (line 1), which would hide what pyright reports instead of fixing it; fix the code so the checker passes without it.');
    assert.match(suppressionRefusal('app/m.py', found, ['mypy']) ?? '', /hide what mypy reports/);
    assert.match(suppressionRefusal('app/m.py', found, ['eslint']) ?? '', /hide what mypy, pyright reports/, 'no Python checker in the run: every checker that reads it');
    // `#[allow(clippy::…)]` silences clippy alone; a plain lint's allow, rustc and clippy alike.
    const rust = addedSuppressions('src/lib.rs', 'fn f() {}\n', '#[allow(clippy::absurd_extreme_comparisons)]\nfn f() {}\n#[allow(unused)]\nfn g() {}\n');
    assert.deepEqual(rust.map((s) => s.tools), [['clippy'], ['rustc', 'clippy']]);
    assert.match(suppressionRefusal('src/lib.rs', rust.slice(0, 1), ['clippy', 'rustc']) ?? '', /hide what clippy reports/);
  });

  it('@no_type_check leaves a function unchecked by mypy and pyright alike: a suppression', () => {
    assert.deepEqual(directives('app/m.py', 'def f(): pass\n', 'import typing\n\n@typing.no_type_check\ndef f(): pass\n'), ['@typing.no_type_check']);
    assert.deepEqual(directives('app/m.py', null, 'from typing import no_type_check\n\n@no_type_check\ndef f(): pass\n'), ['@no_type_check']);
  });
});

// Each matching strategy of core/edits/match on its own: what it places, what it leaves to the next one, what it
// refuses. The corpus (imperfectAnswers.test.ts) runs them together on whole answers.
import * as assert from 'node:assert/strict';
import { splitLines } from '../../../../src/core/edits/match/lines';
import { exact } from '../../../../src/core/edits/match/exact';
import { trailingWhitespace } from '../../../../src/core/edits/match/trailingWhitespace';
import { indentation } from '../../../../src/core/edits/match/indentation';
import { blankLines } from '../../../../src/core/edits/match/blankLines';
import { lineNumbers, stripNumbers } from '../../../../src/core/edits/match/lineNumbers';
import { elisions, isElision } from '../../../../src/core/edits/match/elisions';
import { fileIndentUnit, modelLevelWidth, rebaser } from '../../../../src/core/edits/match/rebase';
import { notFoundNote } from '../../../../src/core/edits/match/closest';
import { replaceOnce, STRATEGIES } from '../../../../src/core/edits/matchText';
import { fenceInfo, infoPath, parseEditBlocks } from '../../../../src/core/edits/parseBlocks';
import { readUnifiedDiff } from '../../../../src/core/edits/unifiedDiff';
import { lineDiff } from '../../../../src/core/edits/match/lineDiff';

const file = (...lines: string[]) => splitLines(lines.map((l) => `${l}\n`).join(''));
const TABBED = file('function f() {', '\tif (a) {', '\t\treturn 1;', '\t}', '', '\treturn 2;', '}');

describe('matching strategies, one at a time', () => {
  it('are tried in a fixed order from exact to loose', () => {
    assert.deepEqual(STRATEGIES.map((s) => s.name), ['exact', 'trailing-whitespace', 'indentation', 'blank-lines', 'line-numbers', 'elision']);
  });

  it('exact and trailing-whitespace place character-for-character matches and leave the rest to later ones', () => {
    assert.deepEqual(exact.find({ file: TABBED, search: ['\t\treturn 1;'], replace: [] }), { kind: 'placed', pieces: [{ start: 2, end: 3, search: ['\t\treturn 1;'], replace: [], map: [2] }] });
    assert.equal(exact.find({ file: TABBED, search: ['\t\treturn 1;  '], replace: [] }).kind, 'none');
    assert.equal(trailingWhitespace.find({ file: TABBED, search: ['\t\treturn 1;  '], replace: [] }).kind, 'placed');
    assert.equal(trailingWhitespace.find({ file: TABBED, search: ['    return 1;'], replace: [] }).kind, 'none');
  });

  it('indentation places a SEARCH whose indentation differs, and refuses one it finds twice', () => {
    const r = indentation.find({ file: TABBED, search: ['  if (a) {', '    return 1;'], replace: [] });
    assert.equal(r.kind, 'placed');
    assert.deepEqual(indentation.find({ file: file('a', '  x', 'b', '    x'), search: ['x'], replace: [] }), { kind: 'ambiguous', lines: [2, 4] });
  });

  it('blank-lines sets blank lines aside on both sides, and maps each SEARCH line to its file line', () => {
    const r = blankLines.find({ file: TABBED, search: ['\t}', '\treturn 2;'], replace: [] });
    assert.deepEqual(r, { kind: 'placed', pieces: [{ start: 3, end: 6, search: ['\t}', '\treturn 2;'], replace: [], map: [3, 5] }] });
    assert.equal(blankLines.find({ file: TABBED, search: ['', ''], replace: [] }).kind, 'none');
  });

  it('line-numbers strips one style of prefix counting up from the real line number, and nothing else', () => {
    assert.deepEqual(stripNumbers(['12: a', '13:     b', '14:']), { first: 12, lines: ['a', '    b', ''], sample: '12: ', style: 'colon' });
    assert.deepEqual(stripNumbers([' 9 | a', '10 | b'])?.lines, ['a', 'b']);
    assert.deepEqual(stripNumbers(['     9\ta', '    10\tb'])?.lines, ['a', 'b']);
    assert.equal(stripNumbers(['12: a', '14: b']), null, 'numbers must count up by one');
    assert.equal(stripNumbers(['12: a', '13 | b']), null, 'one style only');
    assert.equal(stripNumbers(['    1: "one",', '    2: "two",']), null, 'keys indented inside code are not line numbers');
    const placed = lineNumbers.find({ file: TABBED, search: ['2: \tif (a) {', '3: \t\treturn 1;'], replace: ['2: \tif (a) {', '3: \t\treturn 3;', '\t\t// new'] });
    assert.equal(placed.kind, 'placed');
    assert.deepEqual(placed.kind === 'placed' && placed.pieces[0]!.replace, ['\tif (a) {', '\t\treturn 3;', '\t\t// new']);
    assert.equal(lineNumbers.find({ file: TABBED, search: ['5: \tif (a) {', '6: \t\treturn 1;'], replace: [] }).kind, 'none', 'not the real line numbers');
  });

  it('elision recognizes placeholders, not spreads, and places each piece once', () => {
    for (const l of ['...', '…', '// ...', '  // ... existing code ...', '# ... rest unchanged ...', '/* ... */', '<!-- ... -->', '{/* ... */}']) assert.ok(isElision(l), l);
    for (const l of ['...rest,', '  ...defaults', 'foo(...args);', '// TODO ...later', 'return ...;']) assert.ok(!isElision(l), l);
    const r = elisions.find({ file: TABBED, search: ['function f() {', '\t// ...', '\treturn 2;'], replace: ['function f() {', '\t// ...', '\treturn 3;'] });
    assert.equal(r.kind, 'placed');
    assert.deepEqual(r.kind === 'placed' && r.pieces.map((p) => [p.start, p.end]), [[0, 1], [5, 6]]);
    assert.equal(elisions.find({ file: TABBED, search: ['a'], replace: ['b'] }).kind, 'none', 'no elision, nothing to do');
    assert.equal(elisions.find({ file: TABBED, search: ['function f() {', '// ...', '}'], replace: ['function f() {', '}'] }).kind, 'refused');
  });
});

describe('re-basing onto the file\'s indentation', () => {
  it('reads the file\'s unit: tabs, or its most common step of spaces', () => {
    assert.equal(fileIndentUnit(TABBED), '\t');
    assert.equal(fileIndentUnit(file('a:', '    b', '    c:', '        d')), '    ');
    assert.equal(fileIndentUnit(file('a {', '  b {', '    c', '  }', '}')), '  ');
    assert.equal(fileIndentUnit(file('a', 'b')), null);
  });

  it('places a new line by its depth relative to the SEARCH line before it, in the file\'s levels', () => {
    const rb = rebaser('\t', ['  if (a) {', '    return 1;', '      nested();']);
    assert.equal(rb.place('    return 3;', '    return 1;', '\t\treturn 1;'), '\t\treturn 3;');
    assert.equal(rb.place('      nested();', '    return 1;', '\t\treturn 1;'), '\t\t\tnested();');
    assert.equal(rb.place('  }', '    return 1;', '\t\treturn 1;'), '\t}');
    assert.equal(rb.place('', '    return 1;', '\t\treturn 1;'), '');
    const spaces = rebaser('    ', ['\tif x:', '\t\treturn 1']);
    assert.equal(spaces.place('\t\t\tpass', '\t\treturn 1', '        return 1'), '            pass');
  });

  it('keeps the file\'s bytes for the lines the model left as they were', () => {
    const r = replaceOnce('def f():\n\tx = 1  \n\n\treturn x\n', 'def f():\n    x = 1\n    return x\n', 'def f():\n    x = 1\n    y = 2\n    return x + y\n', 'a.py');
    assert.deepEqual(r, { ok: true, content: 'def f():\n\tx = 1  \n\n\ty = 2\n\treturn x + y\n', strategy: 'blank-lines', line: 1 });
    const removed = replaceOnce('a()\n\nb()\n\nc()\nd()\n', 'a()\nb()\nc()\nd()\n', 'd()\n', 'a.js');
    assert.deepEqual(removed, { ok: true, content: 'd()\n', strategy: 'blank-lines', line: 1 }, 'blank lines between removed lines go with them');
    const after = replaceOnce('a() {\n}\n\nb();\n', '}\n\n\n', '}\n\nc();\n', 'a.js');
    assert.deepEqual(after, { ok: true, content: 'a() {\n}\n\nc();\n\nb();\n', strategy: 'blank-lines', line: 2 }, 'a blank line the file lacks is written before the new lines the model put after it');
  });
});

describe('reading what is not a plain block', () => {
  it('finds a path in a fence\'s info string, and only a path', () => {
    assert.equal(fenceInfo('```js src/cart.js'), 'js src/cart.js');
    assert.equal(fenceInfo('~~~'), '');
    assert.equal(fenceInfo('```js`'), null);
    assert.equal(fenceInfo('src/a.js'), null);
    assert.equal(infoPath('js src/cart.js'), 'src/cart.js');
    assert.equal(infoPath('src/cart.js'), 'src/cart.js');
    assert.equal(infoPath('typescript:src/a.ts'), 'src/a.ts');
    assert.equal(infoPath('python title="app/main.py"'), 'app/main.py');
    for (const lang of ['js', 'typescript', 'python3.11', 'c++', 'diff', '']) assert.equal(infoPath(lang), null, lang);
    assert.deepEqual(parseEditBlocks('```js src/a.js\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n').blocks, [{ path: 'src/a.js', search: 'a\n', replace: 'b\n', via: 'fence-path' }]);
  });

  it('reads a unified diff hunk by hunk, ignoring its line numbers', () => {
    const lines = ['--- a/x.js', '+++ b/x.js', '@@ -100,3 +100,3 @@ function f', ' a', '-b', '+c', ' d', '@@ @@', ' e', '+f'];
    const r = readUnifiedDiff(lines, () => null);
    assert.deepEqual(r?.blocks, [
      { path: 'x.js', search: 'a\nb\nd\n', replace: 'a\nc\nd\n', via: 'unified-diff', label: 'Hunk 1 (`@@ -100,3 +100,3 @@`) of the diff' },
      { path: 'x.js', search: 'e\n', replace: 'e\nf\n', via: 'unified-diff', label: 'Hunk 2 (`@@ @@`) of the diff' },
    ]);
    assert.equal(readUnifiedDiff(['just prose', '- a list'], () => null), null);
    assert.deepEqual(parseEditBlocks('Fix:\n```diff\n--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b\n```\nThat is all.').prose, 'Fix:\nThat is all.');
  });
});

describe('"not found" notes', () => {
  it('quote the file\'s lines at the closest place and say how they differ, never the model\'s text as the file\'s', () => {
    const note = notFoundNote(TABBED, ['  if (a) {', '    return 7;']);
    assert.equal(note, 'line 3 of the file has `1` where line 2 of your SEARCH has `7`; lines 2-3 of the file are now:\n```\n\tif (a) {\n\t\treturn 1;\n```');
    assert.match(notFoundNote(TABBED, ['\tif (a', '\t\treturn 1;']), /^line 1 of your SEARCH is only the beginning of line 2 of the file/);
    assert.equal(notFoundNote(TABBED, ['nothing like it']), 'no line of the file looks like its first line');
    assert.match(notFoundNote(TABBED, ['40: \tif (a) {', '41: \t\treturn 1;']), /line numbers \(`40:`\) that are not part of the file/);
  });
});

describe('lineDiff', () => {
  it('finds the lines two sequences share, removals before additions', () => {
    assert.deepEqual(lineDiff(['a', 'b', 'c'], ['a', 'x', 'c']), [{ kind: 'common', count: 1 }, { kind: 'removed', count: 1 }, { kind: 'added', count: 1 }, { kind: 'common', count: 1 }]);
    assert.deepEqual(lineDiff(['a', 'b'], ['x', 'a', 'y', 'b', 'z']), [{ kind: 'added', count: 1 }, { kind: 'common', count: 1 }, { kind: 'added', count: 1 }, { kind: 'common', count: 1 }, { kind: 'added', count: 1 }]);
    assert.deepEqual(lineDiff([], ['a']), [{ kind: 'added', count: 1 }]);
    assert.deepEqual(lineDiff(['a'], []), [{ kind: 'removed', count: 1 }]);
  });
});

describe('the model\'s level width', () => {
  it('is its most common step inward, so a continuation line aligned by a few columns does not make each column a level', () => {
    assert.equal(modelLevelWidth(['def f(a,', '      b):', '    if a:', '        return b']), 4);
    assert.equal(modelLevelWidth(['x', 'y']), 0);
    assert.equal(modelLevelWidth(['\tif a {', '\t\tb()']), 4, 'a tab counts 4 columns');
    const r = replaceOnce('def f(a,\n\t\tb):\n\tif a:\n\t\treturn b\n', 'def f(a,\n      b):\n    if a:\n        return b\n', 'def f(a,\n      b):\n    if a:\n        if b:\n            return b\n', 'f.py');
    assert.deepEqual(r, { ok: true, content: 'def f(a,\n\t\tb):\n\tif a:\n\t\tif b:\n\t\t\treturn b\n', strategy: 'indentation', line: 1 });
  });
});

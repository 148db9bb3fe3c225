import * as assert from 'node:assert/strict';
import { parseEditBlocks } from '../../../../src/core/edits/parseBlocks';

const F = '```';

describe('parseEditBlocks', () => {
  it('reads an Aider-style answer with prose, two files and two blocks for one file', () => {
    const answer = [
      'The failing test `Cart > total > applies discount` expects 90 but gets 100: `total()` never',
      'subtracts the discount. I will apply it, and add a helper for rounding.',
      '',
      'src/cart.ts',
      `${F}typescript`,
      '<<<<<<< SEARCH',
      '  total(): number {',
      '    return this.items.reduce((s, i) => s + i.price, 0);',
      '  }',
      '=======',
      '  total(): number {',
      '    const sum = this.items.reduce((s, i) => s + i.price, 0);',
      '    return round2(sum * (1 - this.discount));',
      '  }',
      '>>>>>>> REPLACE',
      F,
      '',
      'And import the helper at the top of the same file:',
      '',
      `${F}typescript`,
      '<<<<<<< SEARCH',
      "import { Item } from './item';",
      '=======',
      "import { Item } from './item';",
      "import { round2 } from './round';",
      '>>>>>>> REPLACE',
      F,
      '',
      'src/round.ts',
      `${F}typescript`,
      '<<<<<<< SEARCH',
      '=======',
      'export const round2 = (n: number) => Math.round(n * 100) / 100;',
      '>>>>>>> REPLACE',
      F,
      '',
    ].join('\n');
    const r = parseEditBlocks(answer);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.blocks.map((b) => b.path), ['src/cart.ts', 'src/cart.ts', 'src/round.ts']);
    assert.equal(r.blocks[0]!.search, '  total(): number {\n    return this.items.reduce((s, i) => s + i.price, 0);\n  }\n');
    assert.equal(r.blocks[1]!.replace, "import { Item } from './item';\nimport { round2 } from './round';\n");
    assert.equal(r.blocks[2]!.search, '');
    assert.equal(r.blocks[2]!.replace, 'export const round2 = (n: number) => Math.round(n * 100) / 100;\n');
    assert.match(r.prose, /never\nsubtracts the discount/);
    assert.match(r.prose, /import the helper at the top/);
    assert.doesNotMatch(r.prose, /SEARCH|REPLACE|src\/round\.ts|```/);
  });

  it('accepts blocks without fences, several blocks under one path line, and marker variants', () => {
    const answer = [
      'lib/math.py',
      '<<<<<< SEARCH',
      'def add(a, b):',
      '    return a - b',
      '=====',
      'def add(a, b):',
      '    return a + b',
      '>>>>>>>>> REPLACE',
      '<<<<<<<<< SEARCH  ',
      'def sub(a, b):',
      '=========',
      'def sub(a: int, b: int):',
      '>>>>>>> REPLACE   ',
    ].join('\n');
    const r = parseEditBlocks(answer);
    assert.deepEqual(r.errors, []);
    assert.equal(r.blocks.length, 2);
    assert.deepEqual(r.blocks.map((b) => b.path), ['lib/math.py', 'lib/math.py']);
    assert.equal(r.blocks[1]!.replace, 'def sub(a: int, b: int):\n');
  });

  it('strips the decoration models put around the path line', () => {
    const paths = [
      '**src/a.ts**',
      '`src/a.ts`',
      '### src/a.ts',
      'File: src/a.ts',
      '**File:** `src/a.ts`',
      '"src/a.ts"',
      "'src/a.ts':",
      'src/a.ts:',
    ];
    for (const p of paths) {
      const r = parseEditBlocks(`${p}\n${F}ts\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n${F}\n`);
      assert.deepEqual(r.errors, [], p);
      assert.equal(r.blocks[0]!.path, 'src/a.ts', p);
    }
    const spaced = parseEditBlocks('`docs/My Notes.md`\n<<<<<<< SEARCH\n=======\nhi\n>>>>>>> REPLACE\n');
    assert.equal(spaced.blocks[0]!.path, 'docs/My Notes.md');
  });

  it('finds the path inside the fence and with other fence styles (~~~, four backticks, no language)', () => {
    const inside = parseEditBlocks(`${F}python\napp/main.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n${F}`);
    assert.equal(inside.blocks[0]!.path, 'app/main.py');
    const tilde = parseEditBlocks('Makefile\n~~~\n<<<<<<< SEARCH\nall:\n=======\nall: build\n>>>>>>> REPLACE\n~~~');
    assert.equal(tilde.blocks[0]!.path, 'Makefile');
    const four = parseEditBlocks('go/x.go\n````go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n````');
    assert.equal(four.blocks[0]!.path, 'go/x.go');
  });

  it('reads an answer with CRLF line breaks as if it had LF', () => {
    const r = parseEditBlocks('src/a.ts\r\n<<<<<<< SEARCH\r\none\r\n=======\r\ntwo\r\n>>>>>>> REPLACE\r\n');
    assert.deepEqual(r.errors, []);
    assert.equal(r.blocks[0]!.search, 'one\n');
    assert.equal(r.blocks[0]!.replace, 'two\n');
  });

  it('reports a first block without a path in words the model can act on', () => {
    const r = parseEditBlocks(`Here is my fix:\n\n${F}ts\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n${F}`);
    assert.equal(r.blocks.length, 0);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]!, /^Block 1 has no file path line before <<<<<<< SEARCH/);
  });

  it('reports unclosed blocks and a missing divider, and keeps parsing the rest', () => {
    const noTail = parseEditBlocks('src/a.ts\n<<<<<<< SEARCH\na\n=======\nb\n');
    assert.equal(noTail.blocks.length, 0);
    assert.match(noTail.errors[0]!, /Block 1 for src\/a\.ts is not closed: >>>>>>> REPLACE is missing/);

    const noDivider = parseEditBlocks(
      'src/a.ts\n<<<<<<< SEARCH\na\n\nsrc/b.ts\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n',
    );
    assert.match(noDivider.errors[0]!, /Block 1 for src\/a\.ts has no ======= line/);
    assert.equal(noDivider.errors.length, 1);
    assert.deepEqual(noDivider.blocks, [{ path: 'src/b.ts', search: 'c\n', replace: 'd\n' }]);
  });

  it('reports a stray REPLACE marker and an answer with no block at all', () => {
    const stray = parseEditBlocks('src/a.ts\n>>>>>>> REPLACE\n');
    assert.match(stray.errors.join(' '), /Line 2 has >>>>>>> REPLACE without a <<<<<<< SEARCH/);
    const none = parseEditBlocks('I think the bug is in the discount code, but I am not sure.');
    assert.equal(none.blocks.length, 0);
    assert.match(none.errors[0]!, /contains no SEARCH\/REPLACE block/);
    assert.equal(none.prose, 'I think the bug is in the discount code, but I am not sure.');
  });
});

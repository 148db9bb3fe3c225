import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEditBlocks } from '../../../../src/core/edits/applyBlocks';
import { parseEditBlocks } from '../../../../src/core/edits/parseBlocks';
import type { EditBlock } from '../../../../src/core/edits/parseBlocks';
import { makePathPolicy } from '../../../../src/core/edits/pathPolicy';
import type { PathPolicy } from '../../../../src/core/edits/pathPolicy';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../src/session/protectedGlobs';

const F = '```';

describe('applyEditBlocks', () => {
  let root: string;
  let policy: PathPolicy;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-apply-'));
    policy = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  };
  const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
  const bytes = (rel: string) => fs.readFileSync(path.join(root, rel));
  const block = (p: string, search: string, replace: string): EditBlock => ({ path: p, search, replace });
  const failReason = async (blocks: EditBlock[], pol = policy) => {
    const r = await applyEditBlocks(root, blocks, pol);
    assert.equal(r.ok, false, 'the proposal should be refused');
    return (r as { reason: string }).reason;
  };

  const CART = [
    "import { Item } from './item';",
    '',
    'export class Cart {',
    '  items: Item[] = [];',
    '  discount = 0;',
    '',
    '  total(): number {',
    '    return this.items.reduce((s, i) => s + i.price, 0);',
    '  }',
    '}',
    '',
  ].join('\n');

  it('applies a realistic model answer end to end (parse, then apply)', async () => {
    write('src/cart.ts', CART);
    const answer = [
      'The discount is never applied in `total()`.',
      '',
      'src/cart.ts',
      `${F}typescript`,
      '<<<<<<< SEARCH',
      '    return this.items.reduce((s, i) => s + i.price, 0);',
      '=======',
      '    const sum = this.items.reduce((s, i) => s + i.price, 0);',
      '    return sum * (1 - this.discount);',
      '>>>>>>> REPLACE',
      F,
    ].join('\n');
    const parsed = parseEditBlocks(answer);
    assert.deepEqual(parsed.errors, []);
    const r = await applyEditBlocks(root, parsed.blocks, policy);
    assert.deepEqual(r, { ok: true, files: ['src/cart.ts'] });
    assert.equal(read('src/cart.ts'), CART.replace(
      '    return this.items.reduce((s, i) => s + i.price, 0);\n',
      '    const sum = this.items.reduce((s, i) => s + i.price, 0);\n    return sum * (1 - this.discount);\n',
    ));
  });

  it('matches despite trailing whitespace and shifts the replacement to the file\'s indentation', async () => {
    write('src/cart.ts', CART);
    // The model dropped the class indentation and added trailing blanks.
    const r = await applyEditBlocks(root, [block('src/cart.ts',
      'total(): number {   \n  return this.items.reduce((s, i) => s + i.price, 0);\n}\n',
      'total(): number {\n  return 0;\n}\n')], policy);
    assert.ok(r.ok);
    assert.match(read('src/cart.ts'), /\n {2}total\(\): number \{\n {4}return 0;\n {2}\}\n\}\n$/);

    const r2 = await applyEditBlocks(root, [block('src/cart.ts', '  discount = 0;  \t\n', '  discount = 0.1;\n')], policy);
    assert.ok(r2.ok);
    assert.match(read('src/cart.ts'), /\n {2}discount = 0\.1;\n/);
  });

  it('refuses a SEARCH found twice, quoting it and asking for more context; nothing is written', async () => {
    write('src/a.js', 'function a() {\n  return 1;\n}\nfunction b() {\n  return 1;\n}\n');
    const before = bytes('src/a.js');
    const reason = await failReason([block('src/a.js', '  return 1;\n', '  return 2;\n')]);
    assert.match(reason, /The SEARCH of block 1 for src\/a\.js was found 2 times \(lines 2, 5\) — include more surrounding lines/);
    assert.match(reason, /\| {3}return 1;/);
    assert.deepEqual(bytes('src/a.js'), before);
  });

  it('refuses a SEARCH that is not in the file, quoting the file\'s own lines at the closest place and saying how they differ', async () => {
    write('src/cart.ts', CART);
    const reason = await failReason([block('src/cart.ts', '  total(): number {\n    return 42;\n', 'x\n')]);
    assert.match(reason, /block 1 for src\/cart\.ts was not found: line 8 of the file has `this\.items\.reduce\(\(s, i\) => s \+ i\.price, 0\)` where line 2 of your SEARCH has `42`; lines 7-8 of the file are now:/);
    assert.match(reason, /```\n {2}total\(\): number \{\n {4}return this\.items\.reduce\(\(s, i\) => s \+ i\.price, 0\);\n```/);
    assert.doesNotMatch(reason, /return 42/, 'the model\'s own line is never quoted as the file\'s');
    const nowhere = await failReason([block('src/cart.ts', 'nothing like this\n', 'x\n')]);
    assert.match(nowhere, /no line of the file looks like its first line/);
  });

  it('keeps CRLF line endings byte for byte, in the replaced lines too', async () => {
    write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    // The model speaks LF.
    const r = await applyEditBlocks(root, [block('win.txt', 'two\n', 'TWO\nand a half\n')], policy);
    assert.ok(r.ok);
    assert.deepEqual(bytes('win.txt'), Buffer.from('one\r\nTWO\r\nand a half\r\nthree\r\n'));
  });

  it('leaves lines outside the edit alone in a file with mixed line endings', async () => {
    write('mixed.txt', 'a\r\nb\nc\r\n');
    const r = await applyEditBlocks(root, [block('mixed.txt', 'c\n', 'C\n')], policy);
    assert.ok(r.ok);
    assert.deepEqual(bytes('mixed.txt'), Buffer.from('a\r\nb\nC\r\n'));
  });

  it('keeps a UTF-8 BOM and a missing trailing newline', async () => {
    write('bom.cs', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('class A {}\r\nclass B {}')]));
    const r = await applyEditBlocks(root, [block('bom.cs', 'class B {}\n', 'class B { int x; }\n')], policy);
    assert.ok(r.ok);
    assert.deepEqual(bytes('bom.cs'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('class A {}\r\nclass B { int x; }')]));

    write('tail.txt', 'x = 1\ny = 2');
    assert.ok((await applyEditBlocks(root, [block('tail.txt', 'y = 2\n', '')], policy)).ok);
    assert.equal(read('tail.txt'), 'x = 1');
  });

  it('keeps the file mode', async () => {
    write('run.sh', '#!/bin/sh\necho hi\n');
    fs.chmodSync(path.join(root, 'run.sh'), 0o751);
    assert.ok((await applyEditBlocks(root, [block('run.sh', 'echo hi\n', 'echo hello\n')], policy)).ok);
    assert.equal(fs.statSync(path.join(root, 'run.sh')).mode & 0o777, 0o751);
    assert.deepEqual(fs.readdirSync(root), ['run.sh']);
  });

  it('creates a new file (and its folders) from an empty SEARCH, then edits it with a later block', async () => {
    const r = await applyEditBlocks(root, [
      block('src/util/round.ts', '', 'export const round2 = (n: number) => n;\n'),
      block('src/util/round.ts', 'export const round2 = (n: number) => n;\n', 'export const round2 = (n: number) => Math.round(n * 100) / 100;\n'),
    ], policy);
    assert.deepEqual(r, { ok: true, files: ['src/util/round.ts'] });
    assert.equal(read('src/util/round.ts'), 'export const round2 = (n: number) => Math.round(n * 100) / 100;\n');
  });

  it('refuses to create a file that exists, and to edit one that does not', async () => {
    write('src/a.ts', 'keep\n');
    assert.match(await failReason([block('src/a.ts', '', 'overwrite\n')]), /Block 1 has an empty SEARCH, which creates src\/a\.ts, but that file already exists/);
    assert.equal(read('src/a.ts'), 'keep\n');
    assert.match(await failReason([block('src/nope.ts', 'a\n', 'b\n')]), /Block 1 edits src\/nope\.ts, which does not exist/);
    assert.ok(!fs.existsSync(path.join(root, 'src', 'nope.ts')));
  });

  it('is all-or-nothing: a failing second block leaves the first file untouched byte for byte', async () => {
    write('src/a.ts', 'export const a = 1;\r\n');
    write('src/b.ts', 'export const b = 2;\n');
    const beforeA = bytes('src/a.ts');
    const beforeB = bytes('src/b.ts');
    const reason = await failReason([
      block('src/a.ts', 'export const a = 1;\n', 'export const a = 10;\n'),
      block('src/new/c.ts', '', 'export const c = 3;\n'),
      block('src/b.ts', 'export const b = 3;\n', 'export const b = 30;\n'),
    ]);
    assert.match(reason, /block 3 for src\/b\.ts was not found/);
    assert.deepEqual(bytes('src/a.ts'), beforeA);
    assert.deepEqual(bytes('src/b.ts'), beforeB);
    assert.ok(!fs.existsSync(path.join(root, 'src', 'new')));
    assert.deepEqual(fs.readdirSync(path.join(root, 'src')).sort(), ['a.ts', 'b.ts']);
  });

  it('refuses the whole proposal when one block targets a protected, excluded or outside path', async () => {
    write('src/cart.ts', CART);
    write('test/cart.test.ts', 'it("works", () => {});\n');
    const good = block('src/cart.ts', '  discount = 0;\n', '  discount = 0.5;\n');
    const cases: Array<[string, RegExp]> = [
      ['test/cart.test.ts', /^Block 2 was refused: test\/cart\.test\.ts is a protected test file; fix the code under test instead\.$/],
      ['../escape.ts', /^Block 2 was refused: \.\.\/escape\.ts points outside the workspace/],
      ['/etc/hosts', /^Block 2 was refused: \/etc\/hosts is an absolute path/],
      ['.git/config', /^Block 2 was refused: \.git\/config is inside \.git\//],
      ['node_modules/x/index.js', /^Block 2 was refused: node_modules\/x\/index\.js matches the snapshot exclude/],
    ];
    for (const [p, re] of cases) {
      assert.match(await failReason([good, block(p, '', 'x\n')]), re, p);
    }
    assert.equal(read('src/cart.ts'), CART);
    assert.ok(!fs.existsSync(path.join(root, '.git')));
  });

  it('refuses writing through a symlink that leads out of the workspace', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-outside-'));
    try {
      fs.symlinkSync(outside, path.join(root, 'linked'), 'dir');
      assert.match(await failReason([block('linked/pwn.ts', '', 'x\n')]), /leads outside the workspace through a symbolic link/);
      assert.deepEqual(fs.readdirSync(outside), []);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a change to the test scripts of package.json, but not to the rest of it', async () => {
    const pkg = '{\n  "name": "x",\n  "scripts": {\n    "test": "mocha",\n    "build": "tsc"\n  }\n}\n';
    write('package.json', pkg);
    const reason = await failReason([block('package.json', '    "test": "mocha",', '    "test": "mocha --grep fast",')]);
    assert.match(reason, /package\.json: the edit changes the test scripts and test-runner settings of package\.json/);
    assert.equal(read('package.json'), pkg);
    const ok = await applyEditBlocks(root, [block('package.json', '    "build": "tsc"', '    "build": "tsc -p ."')], policy);
    assert.ok(ok.ok);
    const reformat = await applyEditBlocks(root, [block('package.json', '  "name": "x",', '  "name": "x",\n  "jest": { "testPathIgnorePatterns": ["slow"] },')], policy);
    assert.equal(reformat.ok, false, 'jest settings in package.json are test configuration too');
  });

  it('refuses a change to the pytest section of pyproject.toml, but not to the rest of it', async () => {
    const toml = '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n';
    write('pyproject.toml', toml);
    assert.match(await failReason([block('pyproject.toml', 'addopts = "-q"', 'addopts = "-q -k not slow"')]), /\[tool\.pytest…\] section of pyproject\.toml/);
    const ok = await applyEditBlocks(root, [block('pyproject.toml', 'name = "calc"', 'name = "calc"\nversion = "1.0"')], policy);
    assert.ok(ok.ok);
    write('setup.cfg', '[metadata]\nname = calc\n');
    assert.match(await failReason([block('setup.cfg', 'name = calc', 'name = calc\n\n[tool:pytest]\naddopts = --deselect tests/test_a.py')]), /\[tool:pytest\] section of setup\.cfg/);
  });

  it('lets a test file be edited when test edits are allowed', async () => {
    write('test/cart.test.ts', 'expect(total).toBe(100);\n');
    const open = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: true, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
    const r = await applyEditBlocks(root, [block('test/cart.test.ts', 'expect(total).toBe(100);\n', 'expect(total).toBe(90);\n')], open);
    assert.deepEqual(r, { ok: true, files: ['test/cart.test.ts'] });
    assert.equal(read('test/cart.test.ts'), 'expect(total).toBe(90);\n');
  });

  it('refuses binary files and writes through an in-workspace symlink to its target', async () => {
    write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a]));
    assert.match(await failReason([block('logo.png', 'PNG\n', 'x\n')]), /logo\.png is a binary file/);

    write('src/real.ts', 'a\n');
    fs.symlinkSync('real.ts', path.join(root, 'src', 'alias.ts'));
    const r = await applyEditBlocks(root, [block('src/alias.ts', 'a\n', 'b\n')], policy);
    assert.ok(r.ok);
    assert.ok(fs.lstatSync(path.join(root, 'src', 'alias.ts')).isSymbolicLink());
    assert.equal(read('src/real.ts'), 'b\n');
  });
});

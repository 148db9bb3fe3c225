// What a reach does with what it cannot use: broken manifests and configs, cycles, a cap on files, links that lead
// out of the workspace; it never throws and still follows what it can.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { TempWorkspace } from './workspace';
import { importReach } from '../../../../src/context/imports';
import { checkReadable, makePathPolicy } from '../../../../src/core/edits/pathPolicy';

describe('import reach: bad input and bounds', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('broken package.json, tsconfig.json, pyproject.toml, Cargo.toml and go.mod lose nothing a relative import reaches', async () => {
    ws.write({
      'package.json': '{ "name": "x", ',
      'tsconfig.json': '{ "extends": 42, "compilerOptions": { "paths": "nope", "baseUrl": ["a"] }',
      'pyproject.toml': '[tool.setuptools\nwhere = ',
      'Cargo.toml': '[package\nname = ',
      'go.mod': 'this is not a go.mod\n',
      'src/a.ts': "import { b } from './b';\nimport c from 'c';\n",
      'src/b.ts': 'export const b = 1;\n',
      'pkg/__init__.py': '',
      'pkg/m.py': 'from . import n\n',
      'pkg/n.py': '',
      'src/lib.rs': 'mod eval;\n',
      'src/eval.rs': '',
      'x_test.go': 'package x\nimport "example.com/y"\n',
      'x.go': 'package x\n',
    });
    assert.deepStrictEqual(await ws.order(['src/a.ts', 'pkg/m.py', 'src/lib.rs', 'x_test.go'], 1), [
      'src/a.ts@0', 'pkg/m.py@0', 'src/lib.rs@0', 'x_test.go@0', 'src/b.ts@1', 'pkg/n.py@1', 'src/eval.rs@1', 'x.go@1',
    ]);
  });

  it('an import cycle is walked once; each file appears once, at its nearest distance', async () => {
    ws.write({ 'a.js': "require('./b');\n", 'b.js': "require('./c');\nrequire('./a');\n", 'c.js': "require('./a.js');\nrequire('./b');\n" });
    assert.deepStrictEqual(await ws.order(['a.js'], 10), ['a.js@0', 'b.js@1', 'c.js@2']);
  });

  it('stops adding files at the cap, nearest kept', async () => {
    const files: Record<string, string> = { 'test/t.js': Array.from({ length: 30 }, (_, i) => `require('../src/m${i}');`).join('\n') };
    for (let i = 0; i < 30; i++) files[`src/m${i}.js`] = `require('./deep${i}');\n`;
    for (let i = 0; i < 30; i++) files[`src/deep${i}.js`] = '';
    ws.write(files);
    const policyReach = await ws.reach(['test/t.js'], 3, 10);
    assert.strictEqual(policyReach.length, 10);
    assert.ok(policyReach.every((f) => f.distance <= 1), JSON.stringify(policyReach));
  });

  it('a folder linked from outside the workspace lists nothing: no Go package, Python module or Rust module is found through it', async () => {
    const outside = new TempWorkspace().write({ 'lib/lib.go': 'package lib\n', 'pkg/__init__.py': '', 'pkg/mod.py': '' });
    try {
      ws.write({ 'go.mod': 'module example.com/m\n', 'main_test.go': 'package main\nimport "example.com/m/lib"\n', 'test_x.py': 'import pkg.mod\n' });
      fs.symlinkSync(path.join(outside.root, 'lib'), path.join(ws.root, 'lib'));
      fs.symlinkSync(path.join(outside.root, 'pkg'), path.join(ws.root, 'pkg'));
      assert.deepStrictEqual(await ws.order(['main_test.go', 'test_x.py']), ['main_test.go@0', 'test_x.py@0']);
    } finally {
      outside.dispose();
    }
  });

  it('Python: `from . import name` of a name the package defines reaches its __init__.py; a Go package\'s own _test.go files are not reached', async () => {
    ws.write({
      'app/__init__.py': 'VERSION = "1"\n',
      'app/cli.py': 'from . import VERSION\n',
      'go.mod': 'module example.com/m\n',
      'util/util.go': 'package util\n',
      'util/util_test.go': 'package util\n',
      'cmd/run_test.go': 'package cmd\nimport "example.com/m/util"\n',
    });
    assert.deepStrictEqual(await ws.order(['app/cli.py', 'cmd/run_test.go'], 1), ['app/cli.py@0', 'cmd/run_test.go@0', 'app/__init__.py@1', 'util/util.go@1']);
  });

  it('TypeScript paths try each target in turn, and a longer pattern prefix wins', async () => {
    ws.write({
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['gen/*', 'src/*'], '@/ui/*': ['ui/*'] } } }),
      'src/money.ts': 'export const m = 1;\n',
      'ui/button.tsx': 'export const B = 1;\n',
      'src/ui/button.ts': 'export const wrong = 1;\n',
      'test/a.test.ts': "import { m } from '@/money';\nimport { B } from '@/ui/button';\n",
    });
    assert.deepStrictEqual(await ws.order(['test/a.test.ts'], 1), ['test/a.test.ts@0', 'src/money.ts@1', 'ui/button.tsx@1']);
  });

  it("the session's reach walks again each attempt: a file an edit changed is read anew, an unchanged one comes from the cache", async () => {
    ws.write({ 'test/t.js': "require('../src/a');\n", 'src/a.js': "require('./b');\n", 'src/b.js': '', 'src/c.js': '' });
    const policy = makePathPolicy({ root: ws.root, protectedGlobs: [], allowTestEdits: true, excludes: [] });
    const cache = new Map();
    const reach = importReach(ws.root, { gate: (rel) => checkReadable(policy, rel), cache });
    assert.deepStrictEqual((await reach(['test/t.js'], 3)).map((f) => f.path), ['test/t.js', 'src/a.js', 'src/b.js']);
    const before = cache.get('test/t.js');
    ws.write({ 'src/a.js': "require('./c');\n" });
    assert.deepStrictEqual((await reach(['test/t.js'], 3)).map((f) => f.path), ['test/t.js', 'src/a.js', 'src/c.js']);
    assert.strictEqual(cache.get('test/t.js'), before, 'the unchanged test file was not parsed again');
  });
});

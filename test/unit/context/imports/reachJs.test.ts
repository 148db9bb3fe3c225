// Following JavaScript and TypeScript imports from a failing test the way Node and tsc do, on real files.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { TempWorkspace } from './workspace';

/** Where Node itself resolves `spec` from a module in `dir`: by require, or by import. */
function nodeResolves(ws: TempWorkspace, dir: string, spec: string, kind: 'require' | 'import'): string {
  const code = kind === 'require' ? `console.log(require.resolve(${JSON.stringify(spec)}))` : `console.log(new URL(import.meta.resolve(${JSON.stringify(spec)})).pathname)`;
  const args = kind === 'require' ? ['-e', code] : ['--input-type=module', '-e', code];
  const abs = execFileSync(process.execPath, args, { cwd: path.join(ws.root, dir), encoding: 'utf8' }).trim();
  return path.relative(fs.realpathSync(ws.root), abs).split(path.sep).join('/');
}

describe('import reach: JavaScript and TypeScript', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it("a test's require('..') reaches the package's main, and what it requires two hops away (negotiator's shape)", async () => {
    ws.write({
      'package.json': JSON.stringify({ name: 'negotiator', main: 'index.js' }),
      'index.js': "'use strict';\nvar preferredCharsets = require('./lib/charset');\nmodule.exports = Negotiator;\nfunction Negotiator(r) {}\nNegotiator.prototype.charsets = function charsets() { return preferredCharsets(); };\n",
      'lib/charset.js': "module.exports = preferredCharsets;\nfunction preferredCharsets() { return []; }\n",
      'test/charset.js': "var assert = require('assert');\nvar Negotiator = require('..');\nit('x', () => { new Negotiator({}).charsets(); });\n",
    });
    assert.strictEqual(nodeResolves(ws, 'test', '..', 'require'), 'index.js');
    assert.deepStrictEqual(await ws.order(['test/charset.js']), ['test/charset.js@0', 'index.js@1', 'lib/charset.js@2']);
  });

  it("require('.') and a bare folder import find index files; './/index.js' and './index.js' are one file", async () => {
    ws.write({
      'lib/index.js': "exports.a = require('./a');\nexports.b = require('.//b/');\n",
      'lib/a.js': "module.exports = 1;\n",
      'lib/b/index.ts': "export const b = 2;\n",
      'lib/c.js': "require('.');\nrequire('./index.js');\nrequire('.//index.js');\n",
    });
    assert.deepStrictEqual(await ws.order(['lib/c.js']), ['lib/c.js@0', 'lib/index.js@1', 'lib/a.js@2', 'lib/b/index.ts@2']);
  });

  it('a re-export index leads to the real module two hops away, and the one defining what the test calls comes first (commander\'s shape)', async () => {
    ws.write({
      'package.json': JSON.stringify({ name: 'commander', main: './index.js' }),
      'index.js': "const { Argument } = require('./lib/argument.js');\nconst { Command } = require('./lib/command.js');\nexports.program = new Command();\nexports.Command = Command;\nexports.Argument = Argument;\n",
      'lib/argument.js': "class Argument { name() {} }\nexports.Argument = Argument;\n",
      'lib/command.js': "class Command { option(f) {} parse() {} }\nexports.Command = Command;\n",
      'tests/options.env.test.js': "const commander = require('../');\ntest('env', () => { const program = new commander.Command(); program.option('-p'); program.parse([]); });\n",
    });
    const reached = await ws.reach(['tests/options.env.test.js']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), ['tests/options.env.test.js@0', 'index.js@1', 'lib/command.js@2', 'lib/argument.js@2']);
    assert.deepStrictEqual(reached[2].symbols, ['Command']);
  });

  it('ESM re-exports (export * from, export { x } from) pass the test\'s names on to the module that defines them', async () => {
    ws.write({
      'src/index.ts': "export * from './format';\nexport * from './parse';\nexport { helper as util } from './util';\n",
      'src/format.ts': "export function format(x: number): string { return String(x); }\n",
      'src/parse.ts': "export function parse(s: string): number { return Number(s); }\n",
      'src/util.ts': "export const helper = 1;\n",
      'test/parse.test.ts': "import { parse } from '../src/index.js';\nit('p', () => parse('1'));\n",
    });
    const reached = await ws.reach(['test/parse.test.ts']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), ['test/parse.test.ts@0', 'src/index.ts@1', 'src/parse.ts@2', 'src/util.ts@2', 'src/format.ts@2']);
    assert.deepStrictEqual(reached[2].symbols, ['parse']);
  });

  it('package.json exports: conditions by import kind (import / require / default) and subpaths', async () => {
    ws.write({
      'package.json': JSON.stringify({
        name: 'dual',
        exports: {
          '.': { import: './esm/index.mjs', require: './cjs/index.cjs', default: './cjs/index.cjs' },
          './feature': { default: './src/feature.js' },
          './package.json': './package.json',
        },
      }),
      'esm/index.mjs': 'export const esm = 1;\n',
      'cjs/index.cjs': 'exports.cjs = 1;\n',
      'src/feature.js': 'exports.feature = 1;\n',
      'test/esm.test.mjs': "import { esm } from 'dual';\nimport { feature } from 'dual/feature';\n",
      'test/cjs.test.js': "const { cjs } = require('dual');\n",
      'test/dir.test.js': "const x = require('..');\n",
    });
    assert.strictEqual(nodeResolves(ws, 'test', 'dual', 'import'), 'esm/index.mjs');
    assert.strictEqual(nodeResolves(ws, 'test', 'dual', 'require'), 'cjs/index.cjs');
    assert.strictEqual(nodeResolves(ws, 'test', 'dual/feature', 'import'), 'src/feature.js');
    assert.deepStrictEqual(await ws.order(['test/esm.test.mjs'], 1), ['test/esm.test.mjs@0', 'esm/index.mjs@1', 'src/feature.js@1']);
    assert.deepStrictEqual(await ws.order(['test/cjs.test.js'], 1), ['test/cjs.test.js@0', 'cjs/index.cjs@1']);
    assert.deepStrictEqual(await ws.order(['test/dir.test.js'], 1), ['test/dir.test.js@0', 'cjs/index.cjs@1']);
  });

  it('a package names itself (self-reference) without exports: its main, and its files by subpath', async () => {
    ws.write({
      'package.json': JSON.stringify({ name: '@scope/lib', main: 'lib/main.js' }),
      'lib/main.ts': 'export const main = 1;\n',
      'src/extra.ts': 'export const extra = 1;\n',
      'test/a.test.ts': "import { main } from '@scope/lib';\nimport { extra } from '@scope/lib/src/extra';\nimport 'left-pad';\n",
    });
    assert.deepStrictEqual(await ws.order(['test/a.test.ts'], 1), ['test/a.test.ts@0', 'lib/main.ts@1', 'src/extra.ts@1']);
  });

  it('TypeScript paths and baseUrl, from a tsconfig that extends another, with comments and trailing commas', async () => {
    ws.write({
      'tsconfig.base.json': '{\n  // shared\n  "compilerOptions": {\n    "baseUrl": "./src",\n    "paths": { "@app/*": ["app/*"], "@core": ["core/index.ts"], },\n  },\n}\n',
      'tsconfig.json': '{ "extends": "./tsconfig.base", "compilerOptions": { "strict": true } }\n',
      'src/app/cart.ts': "import { money } from '@core';\nexport const cart = money;\n",
      'src/core/index.ts': "export { money } from 'lib/money';\n",
      'src/lib/money.ts': 'export const money = 1;\n',
      'test/cart.test.ts': "import { cart } from '@app/cart';\n",
    });
    assert.deepStrictEqual(await ws.order(['test/cart.test.ts']), ['test/cart.test.ts@0', 'src/app/cart.ts@1', 'src/core/index.ts@2', 'src/lib/money.ts@3']);
  });

  it('.js, .mjs and .cjs imports stand for .ts, .mts and .cts sources; dynamic import() and import x = require() are followed', async () => {
    ws.write({
      'src/money.ts': 'export const x = 1;\n',
      'src/util.mts': 'export const u = 1;\n',
      'src/conf.cts': 'export = { c: 1 };\n',
      'src/lazy.ts': 'export const lazy = 1;\n',
      'src/old.ts': 'export const old = 1;\n',
      'test/money.test.ts': "import { x } from '../src/money.js';\nimport { u } from '../src/util.mjs';\nimport conf = require('../src/conf.cjs');\nimport old = require('../src/old');\nit('lazy', async () => { const { lazy } = await import('../src/lazy.js'); });\n",
    });
    assert.deepStrictEqual(await ws.order(['test/money.test.ts'], 1), ['test/money.test.ts@0', 'src/money.ts@1', 'src/util.mts@1', 'src/lazy.ts@1', 'src/conf.cts@1', 'src/old.ts@1']);
  });

  it("exports whose first condition is types lead to the code that runs, never to a .d.ts (commander's package.json)", async () => {
    ws.write({
      'package.json': JSON.stringify({
        name: 'commander',
        main: './index.js',
        types: 'typings/index.d.ts',
        exports: { '.': { require: { types: './typings/index.d.ts', default: './index.js' }, import: { types: './typings/esm.d.mts', default: './esm.mjs' } } },
      }),
      'index.js': "exports.Command = require('./lib/command.js').Command;\n",
      'esm.mjs': "import commander from './index.js';\nexport const { Command } = commander;\n",
      'lib/command.js': 'class Command {}\nexports.Command = Command;\n',
      'typings/index.d.ts': 'export class Command {}\n',
      'typings/esm.d.mts': "export * from './index.js';\n",
      'tests/a.test.js': "const commander = require('../');\n",
      'tests/b.test.mjs': "import { Command } from 'commander';\n",
    });
    assert.strictEqual(nodeResolves(ws, 'tests', '../', 'require'), 'index.js');
    assert.deepStrictEqual(await ws.order(['tests/a.test.js']), ['tests/a.test.js@0', 'index.js@1', 'lib/command.js@2']);
    assert.deepStrictEqual(await ws.order(['tests/b.test.mjs']), ['tests/b.test.mjs@0', 'esm.mjs@1', 'index.js@2', 'lib/command.js@3']);
  });

  it('monorepo packages by name (npm workspaces, pnpm-workspace.yaml), an unbuilt dist/ entry standing for its source under rootDir', async () => {
    ws.write({
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }),
      'pnpm-workspace.yaml': "packages:\n  - 'tools/*'\n",
      'packages/core/package.json': JSON.stringify({ name: '@acme/core', main: 'dist/index.js', exports: { '.': './dist/index.js', './money': './dist/money.js' } }),
      'packages/core/tsconfig.json': '{ "compilerOptions": { "outDir": "dist", "rootDir": "src" } }',
      'packages/core/src/index.ts': "export * from './money.js';\n",
      'packages/core/src/money.ts': 'export function add(a: number, b: number) { return a + b; }\n',
      'packages/app/package.json': JSON.stringify({ name: '@acme/app' }),
      'packages/app/test/app.test.ts': "import { add } from '@acme/core';\nimport * as money from '@acme/core/money';\nimport { lint } from 'acme-lint';\nadd(1, 2);\n",
      'tools/lint/package.json': JSON.stringify({ name: 'acme-lint', main: 'index.js' }),
      'tools/lint/index.js': 'exports.lint = () => {};\n',
    });
    assert.deepStrictEqual(await ws.order(['packages/app/test/app.test.ts']), [
      'packages/app/test/app.test.ts@0',
      'packages/core/src/money.ts@1',
      'tools/lint/index.js@1',
      'packages/core/src/index.ts@1',
    ]);
  });

  it('never goes into node_modules, nor past the hops asked for', async () => {
    ws.write({
      'node_modules/dep/package.json': JSON.stringify({ name: 'dep', main: 'index.js' }),
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'a.js': "require('dep');\nrequire('./node_modules/dep');\nrequire('./b');\n",
      'b.js': "require('./c');\n",
      'c.js': '',
    });
    assert.deepStrictEqual(await ws.order(['a.js'], 1), ['a.js@0', 'b.js@1']);
    assert.ok(!ws.reads.some((r) => r.includes('node_modules')), ws.reads.join(', '));
  });

  it('reads nothing the path policy refuses: a link out of the workspace, a FIFO, a git-ignored file, .git', async function () {
    const outside = new TempWorkspace().write({ 'secret.js': "require('./more');\n", 'more.js': '' });
    try {
      ws.write({
        'test/a.test.js': "require('../src/linked');\nrequire('../src/fifo');\nrequire('../src/ignored');\nrequire('../.git/hooks');\nrequire('../src/ok');\n",
        'src/ignored.js': "require('./behind');\n",
        'src/behind.js': '',
        'src/ok.js': '',
        '.git/hooks.js': '',
      });
      fs.symlinkSync(path.join(outside.root, 'secret.js'), path.join(ws.root, 'src/linked.js'));
      require('child_process').execFileSync('mkfifo', [path.join(ws.root, 'src/fifo.js')]);
      ws.write({ '.gitignore': 'src/ignored.js\n' });
      assert.deepStrictEqual(await ws.order(['test/a.test.js']), ['test/a.test.js@0', 'src/ok.js@1']);
      assert.ok(ws.ignoreChecks.some((batch) => batch.includes('src/ignored.js')), 'git was asked about the ignored file');
    } finally {
      outside.dispose();
    }
  });

  it('a test file that does not parse still yields what it imports before the error, and a missing test file yields nothing', async () => {
    ws.write({ 'src/a.js': 'exports.a = 1;\n', 'test/broken.test.js': "const { a } = require('../src/a');\nit('x', () => { a(( });\n" });
    assert.deepStrictEqual(await ws.order(['test/broken.test.js']), ['test/broken.test.js@0', 'src/a.js@1']);
    assert.deepStrictEqual(await ws.order(['test/missing.test.js']), []);
  });
});

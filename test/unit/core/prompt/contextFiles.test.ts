// Which files the model is shown: the code a failing test imports, found the way the project's own compiler
// finds it, on real files in a temp folder.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importedFiles } from '../../../../src/core/prompt/contextFiles';
import { makePathPolicy } from '../../../../src/core/edits/pathPolicy';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../src/session/protectedGlobs';

describe('the code a failing test imports', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-context-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };

  it('a TypeScript test importing "./money.js" (node16/nodenext resolution) is shown src/money.ts', () => {
    write('src/money.ts', 'export const x = 1;\n');
    write('src/view.tsx', 'export const v = 1;\n');
    write('src/util.mts', 'export const u = 1;\n');
    write('test/money.test.ts', "import { x } from '../src/money.js';\nimport { v } from '../src/view.js';\nimport { u } from '../src/util.mjs';\n");
    const policy = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
    assert.deepStrictEqual(importedFiles('test/money.test.ts', policy), ['src/money.ts', 'src/view.tsx', 'src/util.mts']);
  });
});

// The core must run in plain Node (CLI, mocha): only src/extension and src/webview may touch `vscode`.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const VSCODE_FREE = ['src/core', 'src/verify', 'src/snapshot', 'src/actors', 'src/cli', 'src/shared'];
const IMPORTS_VSCODE = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.[cm]?[jt]sx?$/.test(e.name) ? [p] : [];
  });
}

export function filesImportingVscode(dirs: string[]): string[] {
  return dirs.flatMap((d) => sourceFiles(path.join(ROOT, d))).filter((f) => IMPORTS_VSCODE.test(fs.readFileSync(f, 'utf8')));
}

describe('layering', () => {
  it('keeps vscode out of core, verify, snapshot, actors, cli and shared', () => {
    const offenders = filesImportingVscode(VSCODE_FREE).map((f) => path.relative(ROOT, f));
    assert.deepStrictEqual(offenders, [], `these files import vscode but must run in plain Node: ${offenders.join(', ')}`);
  });

  it('would catch an import (the check itself works)', () => {
    const tmp = fs.mkdtempSync(path.join(ROOT, 'src', 'core', '.layer-probe-'));
    try {
      fs.writeFileSync(path.join(tmp, 'bad.ts'), "import * as vscode from 'vscode';\n");
      assert.strictEqual(filesImportingVscode(['src/core']).length, 1);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

// The workspace's files as a runner names them, for the narrowings that need them: go prints a failing test's file by
// its base name only (its package is found here), mocha's stack names a file by an absolute path. Bounded: a tree too
// big to list is no reason to walk it on every attempt, and without the list those runners simply are not narrowed.
import * as fs from 'node:fs';
import * as path from 'node:path';

const SKIPPED = new Set(['node_modules', 'target', 'vendor', 'dist', 'build', 'out', 'coverage', '__pycache__']);
const MAX_FILES = 20_000;

/** Workspace-relative paths ('/'-separated), dot folders and dependency/build folders left out; null past the bound. */
export function workspaceFiles(cwd: string, max = MAX_FILES): string[] | null {
  const out: string[] = [];
  const walk = (rel: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(cwd, rel), { withFileTypes: true });
    } catch {
      return true;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') || SKIPPED.has(e.name)) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!walk(p)) return false;
      } else if (e.isFile()) {
        out.push(p);
        if (out.length > max) return false;
      }
    }
    return true;
  };
  return walk('') ? out.sort() : null;
}

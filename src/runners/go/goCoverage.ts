// What `go test -coverprofile` says the tests executed: blocks of statements by import path, mapped to workspace
// files through the module path in go.mod. go merges every package's profile into one file: one run unit.
import * as fs from 'fs';
import * as path from 'path';
import type { CoverageUnit } from '../runner';

// example.com/m/calc/calc.go:3.24,5.2 1 1  (file:startLine.startCol,endLine.endCol statements count)
const BLOCK = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/;

export function readGoProfile(profile: string, cwd: string, failed: boolean): CoverageUnit[] | { why: string } {
  let text: string;
  try {
    text = fs.readFileSync(profile, 'utf8');
  } catch {
    return { why: 'go test wrote no coverage profile (the command may set its own -coverprofile)' };
  }
  const module = modulePath(cwd);
  if (!module) return { why: 'no go.mod with a module line in the workspace, so the profile\'s import paths name no file' };
  const lines = new Map<string, Set<number>>();
  for (const row of text.split('\n')) {
    const m = BLOCK.exec(row.trim());
    if (!m || Number(m[4]) === 0 || !m[1].startsWith(`${module}/`)) continue;
    const rel = m[1].slice(module.length + 1);
    let set = lines.get(rel);
    if (!set) lines.set(rel, (set = new Set()));
    // A block's closing line holds only its brace; its opening line is where the block starts to run.
    const [from, to] = [Number(m[2]), Number(m[3])];
    for (let l = from; l <= Math.max(from, to - 1); l++) set.add(l);
  }
  return lines.size ? [{ failed, lines }] : [];
}

function modulePath(cwd: string): string | null {
  try {
    const m = /^module\s+(\S+)/m.exec(fs.readFileSync(path.join(cwd, 'go.mod'), 'utf8'));
    return m ? m[1].replace(/^"|"$/g, '') : null;
  } catch {
    return null;
  }
}

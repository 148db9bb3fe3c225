// Picks the source files a model needs to see: those named in failures, stack traces and type errors.
import * as fs from 'fs';
import * as path from 'path';
import type { WitnessSummary } from './runState';

export interface ContextFile {
  path: string;
  content: string;
  truncated: boolean;
}

const SOURCE_PATH = /(?:^|[\s(["'`])((?:\.{0,2}\/)?(?:[\w@.-]+\/)*[\w@.-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|vue|svelte|json))(?::(\d+))?/g;

/** Paths mentioned in the witness, most relevant first (non-test sources before tests). */
export function mentionedPaths(witness: WitnessSummary, cwd: string): string[] {
  const found: string[] = [];
  const add = (p: string | undefined) => {
    if (!p) return;
    const rel = toWorkspaceRelative(p, cwd);
    if (rel && !found.includes(rel)) found.push(rel);
  };
  for (const d of witness.diagnostics) add(d.file);
  for (const f of witness.failures) {
    for (const m of f.message.matchAll(SOURCE_PATH)) add(m[1]);
    add(f.file);
  }
  for (const m of witness.outputExcerpt.matchAll(SOURCE_PATH)) add(m[1]);
  return found;
}

function toWorkspaceRelative(p: string, cwd: string): string | null {
  const cleaned = p.replace(/^file:\/\//, '').replace(/^<workspace>\//, '');
  const abs = path.isAbsolute(cleaned) ? cleaned : path.join(cwd, cleaned);
  const rel = path.relative(cwd, abs);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  if (rel.split(path.sep).some((seg) => seg === 'node_modules' || seg === '.git')) return null;
  try {
    if (!fs.statSync(abs).isFile()) return null;
  } catch {
    return null;
  }
  return rel.split(path.sep).join('/');
}

/** Reads the files in order until the budget is spent; big files are cut at perFileChars. */
export function readContextFiles(rels: string[], cwd: string, perFileChars: number, totalChars: number): ContextFile[] {
  const out: ContextFile[] = [];
  let used = 0;
  for (const rel of rels) {
    if (used >= totalChars) break;
    let content: string;
    try {
      content = fs.readFileSync(path.join(cwd, rel), 'utf8');
    } catch {
      continue;
    }
    if (content.includes('\u0000')) continue; // binary
    const limit = Math.min(perFileChars, totalChars - used);
    const truncated = content.length > limit;
    if (truncated) content = `${content.slice(0, limit)}\n[… file cut at ${limit} characters …]`;
    used += content.length;
    out.push({ path: rel, content, truncated });
  }
  return out;
}

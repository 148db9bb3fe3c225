// Applies a model's SEARCH/REPLACE blocks all-or-nothing: every path is checked and every new content is
// computed in memory first, and nothing is written unless every block succeeded.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { tempSiblingFor } from '../../base/tempSibling';
import type { EditBlock } from './parseBlocks';
import { checkPath } from './pathPolicy';
import { protectedPartChange } from './protectedContent';
import { addedLines, tamperReason } from './tamperCheck';
import { addedSuppressions, suppressionRefusal } from './suppressions';
import type { PathPolicy } from './pathPolicy';
import { isEmptySection, replaceOnce, sectionLines } from './matchText';
import { Pacer } from './pacer';

export type ApplyResult =
  | { ok: true; /** Workspace-relative paths whose content changed, in first-edit order. */ files: string[] }
  | { ok: false; reason: string };

interface Pending {
  rel: string;
  abs: string;
  /** null: the file does not exist yet. */
  original: Buffer | null;
  content: string;
  mode: number | null;
  /** Number of the block that creates this file in this proposal. */
  createdBy: number | null;
}

const QUOTE_LINES = 3;
/** A quoted line or a list of line numbers goes back to the model in the next prompt: it stays short. */
const QUOTE_CHARS = 200;
const SHOWN_HITS = 10;

function quoteSearch(search: string): string {
  const lines = sectionLines(search);
  const shown = lines.slice(0, QUOTE_LINES).map((l) => `  | ${l.length > QUOTE_CHARS ? `${l.slice(0, QUOTE_CHARS)}…` : l}`).join('\n');
  const more = lines.length > QUOTE_LINES ? `\n  | … (${lines.length - QUOTE_LINES} more lines)` : '';
  return `${shown}${more}`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function load(rel: string, abs: string): Promise<Pending | string> {
  let stat;
  try {
    stat = await fs.stat(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { rel, abs, original: null, content: '', mode: null, createdBy: null };
    if (code === 'ENOTDIR') return `${rel} cannot be created because part of its folder path is a file; pick another path.`;
    return `${rel} could not be read (${(err as Error).message}); check its permissions.`;
  }
  if (!stat.isFile()) return `${rel} is not a regular file (it is a folder or a device); name a file instead.`;
  const buf = await fs.readFile(abs);
  if (buf.includes(0)) return `${rel} is a binary file, which SEARCH/REPLACE blocks cannot edit; change a text file instead.`;
  let content: string;
  try {
    content = utf8.decode(buf);
  } catch {
    return `${rel} is not UTF-8 text, so Greenloop will not rewrite it; change a UTF-8 file instead.`;
  }
  return { rel, abs, original: buf, content, mode: stat.mode & 0o7777, createdBy: null };
}

/** "The SEARCH of block 2", or "Hunk 2 (`@@ -3,4 +3,4 @@`) of the diff" for a block read from a unified diff. */
function subject(block: EditBlock, n: number): string {
  return block.label ?? `The SEARCH of block ${n}`;
}

/**
 * The name a placed block is counted under: the strategy that placed it, after how it was read when that was not a
 * plain block (`unified-diff`, `fence-path`), joined by `+`; `exact` for a plain block placed exactly.
 */
function matchedByKey(block: EditBlock, strategy: string): string {
  const parts = [...(block.via ? [block.via] : []), ...(strategy === 'exact' && block.via ? [] : [strategy])];
  return parts.join('+');
}

/** Computes every file's new content; returns the first problem as a sentence the model can act on. */
async function plan(blocks: EditBlock[], policy: PathPolicy, pacer: Pacer, matchedBy: Record<string, number>): Promise<Map<string, Pending> | string> {
  const files = new Map<string, Pending>();
  const count = (key: string) => (matchedBy[key] = (matchedBy[key] ?? 0) + 1);
  for (const [idx, block] of blocks.entries()) {
    await pacer.step();
    const n = idx + 1;
    const checked = checkPath(policy, block.path);
    if (!checked.ok) return `Block ${n} was refused: ${checked.reason}`;
    let file = files.get(checked.abs);
    if (!file) {
      const loaded = await load(checked.rel, checked.abs);
      if (typeof loaded === 'string') return `Block ${n} was refused: ${loaded}`;
      file = loaded;
      files.set(checked.abs, file);
    }
    if (isEmptySection(block.search)) {
      if (file.original !== null || file.createdBy !== null) {
        const by = file.createdBy !== null ? ` (block ${file.createdBy} creates it)` : '';
        return `Block ${n} has an empty SEARCH, which creates ${file.rel}, but that file already exists${by}; put the exact lines to change in SEARCH instead.`;
      }
      file.content = block.replace;
      file.createdBy = n;
      count(block.via ? `${block.via}+new-file` : 'new-file');
      continue;
    }
    if (file.original === null && file.createdBy === null) {
      if (block.via === 'fence-path') return `Block ${n} names ${file.rel} in its fence's info string, which is not a file of the workspace; write the path of the file to change on its own line before the block.`;
      return `${block.label ? block.label.replace(/ of the diff$/, '') : `Block ${n}`} edits ${file.rel}, which does not exist; check the path, or create the file with an empty SEARCH section.`;
    }
    const r = replaceOnce(file.content, block.search, block.replace, file.rel);
    if (r.ok) {
      file.content = r.content;
      count(matchedByKey(block, r.strategy));
      continue;
    }
    if (r.kind === 'ambiguous') {
      const at = r.lines.slice(0, SHOWN_HITS).join(', ') + (r.lines.length > SHOWN_HITS ? ', …' : '');
      const how = r.strategy === 'exact' ? '' : ` (matched by ${r.strategy})`;
      return `${subject(block, n)} for ${file.rel} was found ${r.lines.length} times${how} (lines ${at}) — include more surrounding lines so it matches exactly once:\n${quoteSearch(block.search)}`;
    }
    if (r.kind === 'refused') return `${subject(block, n)} for ${file.rel} was refused: ${r.hint}`;
    // A quote of the file's lines follows the hint when a close place was found; the model's own text is never quoted.
    if (r.hint.includes('\n')) return `${subject(block, n)} for ${file.rel} was not found: ${r.hint}\nCopy the lines exactly as they are there.`;
    return `${subject(block, n)} for ${file.rel} was not found (${r.hint}); copy the lines exactly as they are in the file now.`;
  }
  return files;
}

/**
 * Writes the planned files: every new content goes to a temp file next to its target first, then all are
 * renamed into place, so a failure while writing leaves the workspace as it was.
 */
async function commit(changed: Pending[]): Promise<string | null> {
  const staged: Array<{ file: Pending; tmp: string }> = [];
  const madeDirs: string[] = [];
  try {
    for (const file of changed) {
      const made = await fs.mkdir(path.dirname(file.abs), { recursive: true });
      if (made) madeDirs.push(made);
      const tmp = tempSiblingFor(file.abs);
      staged.push({ file, tmp });
      await fs.writeFile(tmp, file.content, { encoding: 'utf8', mode: file.mode ?? 0o666 });
      // writeFile's mode is masked by umask and ignored for existing files; set the original exactly.
      if (file.mode !== null) await fs.chmod(tmp, file.mode);
    }
  } catch (err) {
    await Promise.all(staged.map((s) => fs.rm(s.tmp, { force: true })));
    for (const d of madeDirs.reverse()) await fs.rm(d, { recursive: true, force: true }).catch(() => undefined);
    return `Writing the edit failed (${(err as Error).message}); nothing was changed — check that the workspace is writable.`;
  }
  const done: Pending[] = [];
  try {
    for (const s of staged) {
      await fs.rename(s.tmp, s.file.abs);
      done.push(s.file);
    }
  } catch (err) {
    // Put back what was already renamed so the proposal stays all-or-nothing.
    for (const f of done) {
      if (f.original === null) await fs.rm(f.abs, { force: true }).catch(() => undefined);
      else await fs.writeFile(f.abs, f.original).catch(() => undefined);
    }
    await Promise.all(staged.map((s) => fs.rm(s.tmp, { force: true })));
    return `Writing the edit failed (${(err as Error).message}); it was undone — check that the workspace is writable.`;
  }
  return null;
}

/** A file about to be written: its bytes now (null: it does not exist) and its new content. */
export interface PlannedWrite {
  rel: string;
  before: Buffer | null;
  after: string;
}

/** What an edit may not do besides touching protected paths (the run's LoopConfig decides). */
export interface WitnessRules {
  /** Suppression directives (`// @ts-ignore`, `# type: ignore`…) may be added. */
  allowSuppressions?: boolean;
  /** package.json scripts the check commands run, protected like test scripts. */
  checkScripts?: readonly string[];
  /** The run's checkers, by the source of their findings: a refusal names these (suppressions.runningCheckers). */
  checkers?: readonly string[];
}

/**
 * Why an edit of `rel` from `before` to `after` changes the witness instead of the code, or null: a protected part
 * of a shared file, an assertion disarmed, a suppression directive added. Model blocks and agent edits alike.
 */
export function witnessEditRefusal(rel: string, before: string | null, after: string, policy: PathPolicy, rules: WitnessRules = {}): string | null {
  if (!policy.allowTestEdits) {
    const refusal = protectedPartChange(rel, before, after, rules.checkScripts) ?? tamperReason(rel, addedLines(before, after), after);
    if (refusal) return refusal;
  }
  return rules.allowSuppressions ? null : suppressionRefusal(rel, addedSuppressions(rel, before, after), rules.checkers);
}

/**
 * `beforeWrite` hears every file the edit will write, after every check and before the first byte changes.
 * `signal` (Stop) is heard between blocks; nothing is written once it fired. `matchedBy`, when given, is filled with
 * the blocks of an applied edit by what placed them (contract additions, 2026-11-27): `exact`, a strategy of match/
 * (`indentation`, `blank-lines`, …), `new-file`, after `unified-diff+` or `fence-path+` for blocks read that way.
 */
export async function applyEditBlocks(
  root: string,
  blocks: EditBlock[],
  policy: PathPolicy,
  beforeWrite?: (writes: PlannedWrite[]) => Promise<void>,
  signal?: AbortSignal,
  rules: WitnessRules = {},
  matchedBy?: Record<string, number>,
): Promise<ApplyResult> {
  if (path.resolve(root) !== policy.root) {
    return { ok: false, reason: `The edit targets ${root} but its path policy guards ${policy.root}; this is a Greenloop bug, please report it.` };
  }
  if (blocks.length === 0) return { ok: false, reason: 'The answer contains no SEARCH/REPLACE block, so nothing was changed.' };
  const pacer = new Pacer(signal);
  const counts: Record<string, number> = {};
  const planned = await plan(blocks, policy, pacer, counts);
  if (typeof planned === 'string') return { ok: false, reason: planned };
  const changed = [...planned.values()].filter((f) => f.original === null || !f.original.equals(Buffer.from(f.content, 'utf8')));
  for (const f of changed) {
    await pacer.step();
    const refusal = witnessEditRefusal(f.rel, f.original === null ? null : f.original.toString('utf8'), f.content, policy, rules);
    if (refusal) return { ok: false, reason: `The edit was refused: ${refusal}` };
  }
  await pacer.step();
  await beforeWrite?.(changed.map((f) => ({ rel: f.rel, before: f.original, after: f.content })));
  const failed = await commit(changed);
  if (failed) return { ok: false, reason: failed };
  if (matchedBy) Object.assign(matchedBy, counts);
  return { ok: true, files: changed.map((f) => f.rel) };
}

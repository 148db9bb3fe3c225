// What one READ request shows: the function or class it names, cut by the CodeReader port when the run has one, or a
// window of whole lines around it when not (marked as such); the whole file when it fits, else the part of it the
// prompt did not show. A path is checked as a context file is: never outside the workspace, .git, git-ignored or a secret.
import * as path from 'node:path';
import type { CodeReader, CodeRegion } from '../../../ports/codeContext';
import { boundedRead } from '../../prompt/contextFiles';
import { checkReadable, type PathPolicy } from '../../edits/pathPolicy';
import type { ReadRequest } from './readRequests';

export interface ReadSources {
  policy: PathPolicy;
  /** Which of these real paths git ignores (snapshots do not record them; .env and local settings live there). */
  unrecorded(realRels: string[]): Promise<string[]>;
  reader?: CodeReader;
  redact(text: string): string;
}

/** shown: the text for the next turn; repeat: all of it is already in the prompt; refused: one sentence why not. */
export type ReadResult = { kind: 'shown'; text: string } | { kind: 'repeat'; what: string } | { kind: 'refused'; sentence: string };

/** A file's contents are read at most this far (a READ shows a few thousand tokens at most). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** A window without a parser never runs past this many lines after the symbol's first line. */
const SYMBOL_WINDOW_LINES = 80;
// Files that hold credentials by convention: never shown, tracked or not (.env.example and the like are templates).
const SECRET_NAME = /^(?:\.env(?:\.(?!example$|sample$|template$|dist$)[\w.-]+)?|\.npmrc|\.pypirc|\.netrc|\.git-credentials|id_(?:rsa|dsa|ecdsa|ed25519)|.*\.(?:pem|key|p12|pfx))$/i;

export async function readCode(src: ReadSources, req: ReadRequest, prompt: string, maxChars: number): Promise<ReadResult> {
  const check = checkReadable(src.policy, req.path);
  if (!check.ok) return refused(req, check.reason);
  if (SECRET_NAME.test(path.posix.basename(check.realRel))) return refused(req, `${req.path} is a file that holds secrets by convention, and is never shown to the model.`);
  if ((await src.unrecorded([check.realRel])).length) return refused(req, `${req.path} is ignored by git (local settings and secrets live there), and is never shown to the model.`);
  const raw = boundedRead(check.abs, MAX_FILE_BYTES);
  if (raw === null || raw.includes(0)) return refused(req, `${req.path} is not a readable text file.`);
  const lines = src.redact(raw.toString('utf8')).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const file = { rel: check.rel, lines };
  return req.symbol ? readSymbol(src, file, req.symbol, prompt, maxChars, check.realRel) : readFile(src, file, prompt, maxChars, check.realRel);
}

interface FileLines { rel: string; lines: string[] }

async function readSymbol(src: ReadSources, file: FileLines, symbol: string, prompt: string, maxChars: number, realRel: string): Promise<ReadResult> {
  const name = symbol.split(/[.:#]/).pop() ?? symbol;
  const word = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`);
  const mentions = file.lines.flatMap((l, i) => (word.test(l) ? [i + 1] : [])).slice(0, 200);
  if (mentions.length === 0) return refused({ asked: `${file.rel}#${symbol}` }, `${file.rel} has no \`${name}\`; READ ${file.rel} shows the file.`);
  const regions = src.reader ? await regionsNamed(src.reader, realRel, mentions, name) : [];
  if (regions.length) {
    const text = regions.map((r) => cutRegion(file, r, maxChars / regions.length)).join('\n\n');
    const bodies = regions.map((r) => file.lines.slice(r.startLine - 1, r.endLine).join('\n'));
    if (bodies.every((b) => prompt.includes(b))) return { kind: 'repeat', what: `${file.rel}#${symbol}` };
    return { kind: 'shown', text };
  }
  const first = declarationLine(file.lines, name) ?? mentions[0];
  const from = Math.max(1, first - 2);
  const to = Math.min(file.lines.length, first + SYMBOL_WINDOW_LINES - 1);
  const window = fitLines(file.lines, from, to, maxChars);
  if (prompt.includes(file.lines.slice(from - 1, window).join('\n'))) return { kind: 'repeat', what: `${file.rel}#${symbol}` };
  return { kind: 'shown', text: block(file, from, window, `a window around \`${name}\` of whole lines, not cut by a parser: the function may go on past line ${window}`) };
}

async function readFile(src: ReadSources, file: FileLines, prompt: string, maxChars: number, realRel: string): Promise<ReadResult> {
  const whole = file.lines.join('\n');
  if (prompt.includes(whole)) return { kind: 'repeat', what: file.rel };
  if (whole.length <= maxChars) return { kind: 'shown', text: block(file, 1, file.lines.length, '') };
  if (src.reader) {
    const outline = await src.reader.outline(realRel, false).catch(() => null);
    if (outline?.lines.length) {
      const list = outline.lines.map((l) => `- ${l}`).join('\n').slice(0, maxChars);
      return { kind: 'shown', text: `${file.rel} has ${file.lines.length} lines, too many to show whole within this read's budget. Its declarations (READ ${file.rel}#name shows one):\n${list}` };
    }
  }
  // The head of a long file is what a prompt shows when it cuts one: go on where the prompt left off.
  const shownHead = shownPrefix(file.lines, prompt);
  const from = Math.max(1, shownHead - 2);
  const to = fitLines(file.lines, from, file.lines.length, maxChars);
  const already = shownHead > 0 ? `; lines 1–${shownHead} are shown above` : '';
  return { kind: 'shown', text: block(file, from, to, `a window of whole lines${already}; READ ${file.rel}#name shows one function`) };
}

/** The regions the reader cuts around the symbol's mentions that carry its name (a method may be `Cart.total`). */
async function regionsNamed(reader: CodeReader, rel: string, lines: number[], name: string): Promise<CodeRegion[]> {
  const found = await reader.regions(rel, lines).catch(() => [] as CodeRegion[]);
  const named = found.filter((r) => r.kind !== 'imports' && r.name !== undefined && (r.name === name || r.name.split(/[.:#]/).pop() === name));
  const distinct = named.filter((r, i) => named.findIndex((o) => o.startLine === r.startLine && o.endLine === r.endLine) === i);
  return distinct.slice(0, 3);
}

/** The line that declares `name` (function, class, def, func, const …), 1-based; null when no line looks like one. */
function declarationLine(lines: string[], name: string): number | null {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const decl = new RegExp(`(?:\\b(?:function\\*?|class|def|func(?:\\s*\\([^)]*\\))?|fn|const|let|var|type|interface|enum|struct)\\s+${n}(?![\\w$])|^\\s*(?:(?:export|public|private|protected|static|async|override)\\s+)*${n}\\s*(?:[(=:<]|\\?\\s*\\())`);
  const i = lines.findIndex((l) => decl.test(l));
  return i < 0 ? null : i + 1;
}

/** How many of the file's first lines the prompt already holds, in one piece. */
function shownPrefix(lines: string[], prompt: string): number {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (prompt.includes(lines.slice(0, mid).join('\n'))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The last line, from `from` up to `to`, such that the whole lines fit in maxChars (at least one line). */
function fitLines(lines: string[], from: number, to: number, maxChars: number): number {
  let used = 0;
  for (let i = from; i <= to; i++) {
    used += lines[i - 1].length + 1;
    if (used > maxChars && i > from) return i - 1;
  }
  return to;
}

function cutRegion(file: FileLines, r: CodeRegion, maxChars: number): string {
  const to = fitLines(file.lines, r.startLine, r.endLine, maxChars);
  const what = `${r.kind}${r.name ? ` ${r.name}` : ''}`;
  return block(file, r.startLine, to, to < r.endLine ? `${what}, cut at line ${to} of its ${r.endLine} for this read's budget` : what);
}

function block(file: FileLines, from: number, to: number, note: string): string {
  const where = from === 1 && to === file.lines.length ? 'the whole file' : `lines ${from}–${to} of ${file.lines.length}`;
  return `${file.rel} (${where}${note ? `: ${note}` : ''})\n\`\`\`\n${file.lines.slice(from - 1, to).join('\n')}\n\`\`\``;
}

function refused(req: Pick<ReadRequest, 'asked'>, reason: string): ReadResult {
  return { kind: 'refused', sentence: `READ ${req.asked} was refused: ${reason.replace(/\s+$/, '')}` };
}

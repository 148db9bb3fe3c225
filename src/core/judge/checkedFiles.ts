// What a checker checked cannot shrink: a file tsc or ESLint checked in the best state and no longer checks (deleted
// while its code moved to a .js file tsc skips, renamed, excluded) is missing, exactly like a test that stopped
// running — otherwise moving code out of the checker's reach would read as fixing its errors. Nor can code leave what
// a checker analyses for a file of its language it does not analyse (movedOutOfReach).
import type { WitnessSummary } from '../../ports/runState';

type Reach = Pick<WitnessSummary, 'checked' | 'checkedCounts' | 'checkers'>;

/** "tsc no longer checks src/money.ts", one entry per file (or per checker whose count dropped). */
export function missingChecked(best: Pick<WitnessSummary, 'checked' | 'checkedCounts'>, next: Pick<WitnessSummary, 'checked' | 'checkedCounts'>): string[] {
  const out: string[] = [];
  for (const [source, files] of Object.entries(best.checked ?? {})) {
    // A checker with no whole list now (cargo whose build failed) says it with its errors, not with missing files.
    const listed = next.checked?.[source];
    if (!listed) continue;
    const now = new Set(listed);
    for (const file of files) if (!now.has(file)) out.push(`${source} no longer checks ${file}`);
  }
  for (const [source, count] of Object.entries(best.checkedCounts ?? {})) {
    const now = next.checkedCounts?.[source] ?? 0;
    if (now < count) out.push(`${source} checked ${count} file${count === 1 ? '' : 's'} before and ${now} now`);
  }
  return out;
}

/** What an attempt did to one file, from the best state to the state after it (steps/createdFiles.ts). */
export interface FileChange {
  file: string;
  /** Not in the best state. */
  created: boolean;
  /** Not in the state after the attempt. */
  deleted: boolean;
  /** Lines of code the file gained and lost (trimmed; blank lines left out), as multisets. */
  added: readonly string[];
  removed: readonly string[];
}

/** The change of one file: created or deleted, and the non-blank lines (trimmed) it gained and lost. */
export function fileChange(file: string, before: string | null, after: string | null): FileChange {
  const count = new Map<string, number>();
  for (const l of (before ?? '').split(/\r?\n/)) if (l.trim()) count.set(l.trim(), (count.get(l.trim()) ?? 0) + 1);
  const added: string[] = [];
  for (const l of (after ?? '').split(/\r?\n/)) {
    const t = l.trim();
    if (!t) continue;
    const left = count.get(t) ?? 0;
    // A line moved within the file is neither gained nor lost.
    if (left > 0) count.set(t, left - 1);
    else added.push(t);
  }
  const removed: string[] = [];
  for (const [line, n] of count) for (let i = 0; i < n; i++) removed.push(line);
  return { file, created: before === null, deleted: after === null, added, removed };
}

/**
 * Code moved out of a checker's reach: a file of the checker's language that it does not analyse received code
 * (the attempt created it, or it grew), while code left the files the checker does analyse — lines removed there
 * reappear in it, or those files lost more code than they gained. Judged per checker:
 * - with the whole list of files it analysed (tsc, ESLint, go vet through `go list`, cargo through dep-info), by
 *   that list;
 * - with only a count (pyright, mypy, pylint, Biome, oxlint), for files the attempt created: the count must grow by
 *   the files created (less those deleted), else one of them is not analysed. A file that already existed outside
 *   such a checker's reach cannot be told apart, and is not judged.
 * The files gaining code in a language no checker reads, or that no change touched, are never named.
 */
export function movedOutOfReach(changes: readonly FileChange[], best: Reach, next: Reach): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(next.checked ?? {}), ...Object.keys(best.checkedCounts ?? {})]);
  for (const key of keys) {
    const languages = languagesOf(key, best, next);
    const mine = changes.filter((c) => languages.has(languageOf(c.file)));
    if (mine.length === 0) continue;
    const listed = next.checked?.[key];
    if (listed) {
      const now = new Set(listed);
      const before = new Set(best.checked?.[key] ?? listed);
      const receivers = mine.filter((c) => !c.deleted && !now.has(c.file) && (c.created || c.added.length > c.removed.length));
      const sources = mine.filter((c) => before.has(c.file));
      for (const r of receivers) {
        if (codeLeft(sources, r)) out.push(`${key} does not check ${r.file}, ${r.created ? 'which the edit created' : 'where the edit moved code'}`);
      }
      continue;
    }
    const was = best.checkedCounts?.[key];
    const is = next.checkedCounts?.[key];
    if (was === undefined || is === undefined) continue;
    const created = mine.filter((c) => c.created && !c.deleted && c.added.length > 0);
    const deleted = mine.filter((c) => c.deleted && !c.created).length;
    if (created.length === 0 || is >= was + created.length - deleted) continue;
    const sources = mine.filter((c) => !c.created);
    for (const r of created) {
      if (codeLeft(sources, r)) out.push(`${key} does not check ${r.file}, which the edit created (it checked ${was} file${was === 1 ? '' : 's'} before and ${is} now)`);
    }
  }
  return out;
}

/** Lines of code worth following: not blank, not a lone bracket or keyword, not an import (any module shares those). */
function substantial(line: string): boolean {
  if (/^(?:import|from|use|package|#include|require)\b/.test(line)) return false;
  return line.replace(/\s+/g, '').replace(/[^\w]/g, '').length >= 4 && /[A-Za-z_]/.test(line);
}

/** Code left the analysed files for `receiver`: a line of theirs reappears there, or they lost lines of code. */
function codeLeft(sources: readonly FileChange[], receiver: FileChange): boolean {
  const others = sources.filter((s) => s.file !== receiver.file);
  const arrived = new Set(receiver.added.filter(substantial).map(squash));
  if (others.some((s) => s.removed.some((l) => substantial(l) && arrived.has(squash(l))))) return true;
  const lost = others.reduce((n, s) => n + s.removed.filter(substantial).length - s.added.filter(substantial).length, 0);
  return lost > 0;
}

/** A line as compared across files: whitespace left out, so re-indenting it into a block does not hide it. */
function squash(line: string): string {
  return line.replace(/\s+/g, '');
}

/** One name per language, so a checker of `.ts` files is missed by a new `.js` file as much as by a new `.ts` one. */
const LANGUAGES: Record<string, string> = {
  '.ts': 'js', '.tsx': 'js', '.mts': 'js', '.cts': 'js', '.js': 'js', '.jsx': 'js', '.mjs': 'js', '.cjs': 'js',
  '.py': 'py', '.pyi': 'py', '.go': 'go', '.rs': 'rs',
  '.c': 'c', '.h': 'c', '.cc': 'c', '.cpp': 'c', '.cxx': 'c', '.hpp': 'c', '.hh': 'c', '.hxx': 'c',
};

/** The languages a checker reads: as it says (Witness.checkers), else those of the files it listed. */
function languagesOf(key: string, best: Reach, next: Reach): Set<string> {
  const said = next.checkers?.[key]?.extensions ?? best.checkers?.[key]?.extensions;
  const files = said ? said.map((e) => `x${e}`) : [...(best.checked?.[key] ?? []), ...(next.checked?.[key] ?? [])];
  return new Set(files.map(languageOf).filter((l) => l !== ''));
}

/** A file of a language some checker reads. */
export function isCodeFile(file: string): boolean {
  return languageOf(file) in LANGUAGE_NAMES;
}

const LANGUAGE_NAMES: Record<string, true> = Object.fromEntries(Object.values(LANGUAGES).map((l) => [l, true]));

export function languageOf(file: string): string {
  const base = file.split('/').pop() ?? file;
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || base.endsWith('.d.ts')) return '';
  const ext = base.slice(dot).toLowerCase();
  return LANGUAGES[ext] ?? ext;
}

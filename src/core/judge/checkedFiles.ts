// What a checker checked cannot shrink: a file tsc or ESLint checked in the best state and no longer checks (deleted
// while its code moved to a .js file tsc skips, renamed, excluded) is missing, exactly like a test that stopped
// running — otherwise moving code out of the checker's reach would read as fixing its errors.
import type { WitnessSummary } from '../../ports/runState';

/** "tsc no longer checks src/money.ts", one entry per file (or per checker whose count dropped). */
export function missingChecked(best: Pick<WitnessSummary, 'checked' | 'checkedCounts'>, next: Pick<WitnessSummary, 'checked' | 'checkedCounts'>): string[] {
  const out: string[] = [];
  for (const [source, files] of Object.entries(best.checked ?? {})) {
    const now = new Set(next.checked?.[source] ?? []);
    for (const file of files) if (!now.has(file)) out.push(`${source} no longer checks ${file}`);
  }
  for (const [source, count] of Object.entries(best.checkedCounts ?? {})) {
    const now = next.checkedCounts?.[source] ?? 0;
    if (now < count) out.push(`${source} checked ${count} file${count === 1 ? '' : 's'} before and ${now} now`);
  }
  return out;
}

/**
 * Files an attempt wrote that a checker does not check, where that checker checked files of the same extension in
 * the best state: code moved into a new `.js` file beside checked `.js` files, or emptied out of a checked file into
 * one outside tsconfig's "include". Checkers that list what they checked only (tsc, ESLint) can say this. Judged
 * when the loop passes the attempt's files as JudgeOptions.written.
 */
export function writtenOutsideCheckers(written: readonly string[], best: Pick<WitnessSummary, 'checked'>, next: Pick<WitnessSummary, 'checked'>): string[] {
  const out: string[] = [];
  for (const [source, files] of Object.entries(best.checked ?? {})) {
    const now = new Set(next.checked?.[source] ?? []);
    const extensions = new Set(files.map(extensionOf).filter((e) => e !== ''));
    for (const file of written) {
      if (!now.has(file) && extensions.has(extensionOf(file))) out.push(`${source} does not check ${file}, which the edit wrote`);
    }
  }
  return out;
}

function extensionOf(file: string): string {
  const base = file.split('/').pop() ?? file;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
}

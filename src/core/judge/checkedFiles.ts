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

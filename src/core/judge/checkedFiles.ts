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
 * Files an attempt created that a checker does not check, where that checker checked files of the same language in
 * the best state: code emptied out of a checked `.ts` file into a new `.js` file tsc skips, or into a new file outside
 * tsconfig's "include". Only files the attempt created are passed (see steps/createdFiles.ts): editing a file that
 * already existed unchecked moves nothing out of reach. Checkers that list what they checked only (tsc, ESLint) can
 * say this.
 */
export function writtenOutsideCheckers(written: readonly string[], best: Pick<WitnessSummary, 'checked'>, next: Pick<WitnessSummary, 'checked'>): string[] {
  const out: string[] = [];
  for (const [source, files] of Object.entries(best.checked ?? {})) {
    const now = new Set(next.checked?.[source] ?? []);
    const languages = new Set(files.map(languageOf).filter((e) => e !== ''));
    for (const file of written) {
      if (!now.has(file) && languages.has(languageOf(file))) out.push(`${source} does not check ${file}, which the edit created`);
    }
  }
  return out;
}

/** One name per language, so a checker of `.ts` files is missed by a new `.js` file as much as by a new `.ts` one. */
const LANGUAGES: Record<string, string> = {
  '.ts': 'js', '.tsx': 'js', '.mts': 'js', '.cts': 'js', '.js': 'js', '.jsx': 'js', '.mjs': 'js', '.cjs': 'js',
  '.py': 'py', '.pyi': 'py',
};

function languageOf(file: string): string {
  const base = file.split('/').pop() ?? file;
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || base.endsWith('.d.ts')) return '';
  const ext = base.slice(dot).toLowerCase();
  return LANGUAGES[ext] ?? ext;
}

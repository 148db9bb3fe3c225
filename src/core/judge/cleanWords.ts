// What a green state says in words: the tests, and only the checkers that really ran — with `--tsc off` nothing
// claims a type check, and a pyright check is named as pyright.
import type { WitnessSummary } from '../../ports/runState';

const SHOWN: Record<string, string> = { tsc: 'tsc', eslint: 'ESLint', biome: 'Biome' };

/** "all tests pass", "all tests pass and the type check is clean", "all tests pass and pyright reports no error"… */
export function greenWords(w: Pick<WitnessSummary, 'checked' | 'checkedCounts' | 'checkers'>): string {
  const keys = new Set([...Object.keys(w.checkers ?? {}), ...Object.keys(w.checked ?? {}), ...Object.keys(w.checkedCounts ?? {})]);
  const typeCheck = keys.delete('tsc');
  const names = [...new Set([...keys].map((k) => nameOf(k, w)))];
  const others = names.length ? `${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]} report${names.length === 1 ? 's' : ''} no error` : '';
  if (typeCheck && others) return `all tests pass, the type check is clean and ${others}`;
  if (typeCheck) return 'all tests pass and the type check is clean';
  return others ? `all tests pass and ${others}` : 'all tests pass';
}

/** A check as people know it: its findings' source ("pyright", "go vet"), else its command. */
function nameOf(key: string, w: Pick<WitnessSummary, 'checkers'>): string {
  const sources = w.checkers?.[key]?.sources ?? [];
  const main = sources.includes('clippy') ? 'clippy' : sources[0];
  return main ? (SHOWN[main] ?? main) : `\`${key}\``;
}

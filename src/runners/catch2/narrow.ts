// A Catch2 binary narrowed to its failing test cases by name (every section of each runs), names escaped for
// Catch2's test specs: `,` separates names, `[` opens a tag, `"` quotes, `*` and `~` at an end are patterns.
import { unique, titles } from '../common/args';
import type { TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

// Options whose value is the next word (v2 and v3).
const VALUED = new Set(['-r', '--reporter', '-o', '--out', '-c', '--section', '-d', '--durations', '-D', '--min-duration', '-f', '--input-file',
  '-w', '--warn', '--order', '--rng-seed', '--use-colour', '--colour-mode', '--libidentify', '--wait-for-keypress', '--benchmark-samples',
  '--benchmark-resamples', '--benchmark-confidence-interval', '--benchmark-warmup-time', '--shard-count', '--shard-index', '-x', '--abortx',
  '-v', '--verbosity', '-#', '--filenames-as-tags']);
const FLAGS_WITHOUT_VALUE = new Set(['-#', '--filenames-as-tags']);

/** One test case's name as a Catch2 test spec matches it exactly. */
export function catch2Spec(name: string): string {
  return name.replace(/[\\,[\]"*~]/g, '\\$&');
}

export function narrowCatch2(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) continue; // the command's own test specs: replaced
    kept.push(a);
    // `-c SECTION` runs one section of one test case: the failing test cases run whole.
    if ((a === '-c' || a === '--section') && i + 1 < args.length) {
      kept.pop();
      i++;
      continue;
    }
    if (VALUED.has(a) && !FLAGS_WITHOUT_VALUE.has(a) && !a.includes('=') && i + 1 < args.length) kept.push(args[++i]);
  }
  const names = unique(targets.map((t) => titles(t.id)[0]));
  const pattern = names.map(catch2Spec).join(',');
  return { args: [...kept, pattern], files: null, pattern };
}

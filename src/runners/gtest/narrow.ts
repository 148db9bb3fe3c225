// A gtest binary narrowed with --gtest_filter=A.B:C.D (its own filter dropped; the binary's other flags kept).
import { unique } from '../common/args';
import type { TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';
import { gtestName } from './names';

export function narrowGtest(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  const names = unique(targets.map((t) => gtestName(t.id)));
  // The filter's own characters: a name holding one cannot be selected exactly.
  const odd = names.find((n) => /[*?:\s]/.test(n) || n.startsWith('-'));
  if (odd) return { why: `"${odd}" holds a character --gtest_filter reads as a pattern` };
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--gtest_filter=')) continue;
    if (args[i] === '--gtest_filter') {
      i++;
      continue;
    }
    kept.push(args[i]);
  }
  const pattern = names.join(':');
  return { args: [...kept, `--gtest_filter=${pattern}`], files: null, pattern };
}

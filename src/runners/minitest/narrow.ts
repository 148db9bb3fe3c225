// minitest narrowed by `--name` with an anchored regex of `Class#test_name` (minitest matches a name filter against the
// method and against `Class#method`), and -v, which names every test that ran. Through `rake test` the options go in
// TESTOPTS, which rake hands to a shell: the regex is single-quoted inside it. A single file is given as TEST=.
import { titles, unique } from '../common/args';
import type { TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

/** Ruby's regular expressions escape these as JavaScript's do. */
function escapeRuby(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function narrowMinitest(args: readonly string[], targets: readonly TargetTest[], rake: boolean): RunnerNarrowing | { why: string } {
  const names: string[] = [];
  for (const t of targets) {
    const parts = titles(t.id);
    if (parts.length < 2) return { why: `"${t.id}" names no minitest class and test` };
    const test = parts.pop()!;
    names.push(`${parts.join(' > ')}#${test}`);
  }
  const selection = unique(names);
  const regex = `/^(?:${selection.map(escapeRuby).join('|')})$/`;
  const files = targets.every((t) => t.file) ? unique(targets.map((t) => t.file!)).sort() : null;
  if (!rake) {
    // `ruby -Itest file.rb [options]`: the name filter and -v follow the file; an earlier filter is dropped.
    const kept: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-n' || a === '--name') {
        i++;
        continue;
      }
      if (/^(?:-n|--name=)/.test(a) && a !== '-n') continue;
      kept.push(a);
    }
    const verbose = kept.some((a) => a === '-v' || a === '--verbose') ? [] : ['-v'];
    return { args: [...kept, ...verbose, `--name=${regex}`], files: null, pattern: regex };
  }
  // `rake test [TEST=…] [TESTOPTS=…]`: our TESTOPTS keeps the others' options without their name filter.
  const kept: string[] = [];
  let testopts = '';
  for (const a of args) {
    if (a.startsWith('TESTOPTS=')) testopts = a.slice('TESTOPTS='.length).replace(/(?:^|\s)(?:--name[= ]|-n ?)(?:'[^']*'|"[^"]*"|\S+)/g, '').replace(/(?:^|\s)-v\b|--verbose\b/g, '').trim();
    else if (a.startsWith('TEST=') || a.startsWith('TESTOPTS=')) continue;
    else if (a.startsWith('N=') || a.startsWith('X=')) continue;
    else kept.push(a);
  }
  const test = files && files.length === 1 ? [`TEST=${files[0]}`] : [];
  return { args: [...kept, ...test, `TESTOPTS=${[testopts, '-v', `--name=${shellQuote(regex)}`].filter(Boolean).join(' ')}`], files: test.length ? files : null, pattern: regex };
}

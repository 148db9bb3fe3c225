// test-unit narrowed by `--testcase` and `--name`, each an anchored regular expression (test-unit ANDs its filters, and
// matches a regular expression against the test's name alone, never `Class#name`: the two together select the targets,
// and at most a target's name in another targeted class besides), with `--runner=xml`, which names every test that
// ran. Its options follow the test file (`ruby -Ilib test/test_x.rb`) or `--` (`ruby -e '…require…' -- …`, added when
// missing: ruby reads every word before it as its own); through `rake test` they go in TESTOPTS, which rake hands to a
// shell, so each is single-quoted inside it, and one file is given as TEST=.
import { titles, unique } from '../common/args';
import type { TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

/** Ruby's regular expressions escape these as JavaScript's do; a space is itself. */
function escapeRuby(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/#]/g, '\\$&');
}

function anchored(items: readonly string[]): string {
  return `/\\A(?:${unique(items).map(escapeRuby).join('|')})\\z/`;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** ruby's options that take the next word as their value. */
const RUBY_VALUED = new Set(['-I', '-r', '-e', '-C', '-E', '-F', '--encoding']);
/** test-unit's options Greenloop replaces (the name filters, the runner), with a value unless written `--opt=value`. */
const REPLACED = /^(?:-n|--name|-t|--testcase|-r|--runner|--location)(?:=|$)|^-[ntr]./;

/** The index where the test program's own arguments start (after the script, or after `--`), or -1 when none does. */
function programArgs(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return i + 1;
    if (RUBY_VALUED.has(a)) {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return i + 1;
  }
  return -1;
}

/** The arguments without test-unit's name filters and runner (each with its value). */
function withoutReplaced(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!REPLACED.test(a)) {
      kept.push(a);
      continue;
    }
    // `-n NAME`, `--name NAME`: the value is the next word.
    if (/^(?:-[ntr]|--name|--testcase|--runner|--location)$/.test(a)) i++;
  }
  return kept;
}

export function narrowTestunit(args: readonly string[], targets: readonly TargetTest[], rake: boolean): RunnerNarrowing | { why: string } {
  const classes: string[] = [];
  const names: string[] = [];
  for (const t of targets) {
    const parts = titles(t.id);
    if (parts.length < 2) return { why: `"${t.id}" names no test-unit class and test` };
    const test = parts.pop()!;
    // The XML report names a data-driven test by its method alone: `test_x[label]` would never be seen to run.
    if (/\[.*\]$/.test(test)) return { why: `test-unit's XML report names the data-driven test "${t.id}" without its data label` };
    classes.push(parts.join(' > '));
    names.push(test);
  }
  const selection = [`--testcase=${anchored(classes)}`, `--name=${anchored(names)}`];
  const pattern = selection.join(' ');
  if (!rake) {
    const at = programArgs(args);
    const own = at < 0 ? [...args, '--'] : args.slice(0, at);
    const rest = at < 0 ? [] : withoutReplaced(args.slice(at));
    return { args: [...own, ...rest, '--runner=xml', ...selection], files: null, pattern };
  }
  // `rake test [TEST=…] [TESTOPTS=…]`: our TESTOPTS keeps the others' options without their filters and runner.
  const kept: string[] = [];
  let testopts = '';
  for (const a of args) {
    if (a.startsWith('TESTOPTS=')) testopts = withoutReplaced(a.slice('TESTOPTS='.length).trim().split(/\s+/).filter(Boolean)).join(' ');
    else if (a.startsWith('TEST=') || a.startsWith('N=') || a.startsWith('X=')) continue;
    else kept.push(a);
  }
  const files = targets.every((t) => t.file) ? unique(targets.map((t) => t.file!)).sort() : null;
  const test = files && files.length === 1 ? [`TEST=${files[0]}`] : [];
  return {
    args: [...kept, ...test, `TESTOPTS=${[testopts, '--runner=xml', ...selection.map(shellQuote)].filter(Boolean).join(' ')}`],
    files: test.length ? files : null,
    pattern,
  };
}

// `python -m unittest` (and Django's `manage.py test`) narrowed to some tests by their dotted names,
// `tests.test_calc.TestCalc.test_many`, imported from the folder the command runs in. A discovery whose top-level
// folder is another one names its modules from there, which a name given on the command line would not find: it keeps
// discovering and selects with `-k`, whose substring match may run a few more tests, never fewer. `-v` lists every test
// that ran, so the caller sees that each target did.
import * as path from 'path';
import { readArgs, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';
import { unittestInvocation } from './names';

const UNITTEST: OptionTable = {
  valued: new Set(['-k', '--durations', '-s', '--start-directory', '-p', '--pattern', '-t', '--top-level-directory']),
  dropped: new Set(['-k', '-q', '--quiet']),
};
/** Options only `discover` takes: a run of named tests has no use for them. */
const DISCOVER_ONLY = new Set(['-s', '--start-directory', '-p', '--pattern', '-t', '--top-level-directory']);
const DJANGO: OptionTable = {
  valued: new Set(['-k', '-v', '--verbosity', '--settings', '--pythonpath', '--testrunner', '--parallel', '--tag', '--exclude-tag',
    '-t', '--top-level-directory', '-p', '--pattern', '--durations']),
  dropped: new Set(['-k', '-v', '--verbosity']),
};
const FIXTURE = /^(setUp|tearDown)(Class|Module)$/;

/**
 * `args`: the words after `python -m unittest` or `manage.py test`; `django`: which of the two; `testCommand`: the
 * whole command, whose discovery options (and `cd`) say which folder the module names start from.
 */
export function narrowUnittest(args: readonly string[], targets: readonly TargetTest[], testCommand: string, django: boolean): RunnerNarrowing | { why: string } {
  const roots = unittestInvocation(testCommand).roots;
  const cd = roots[roots.length - 1];
  const discover = !django && args[0] === 'discover';
  // The folder names are imported from: discovery's top-level folder, or the one the command runs in.
  const top = discover ? roots[0] : cd;
  const names: string[] = [];
  for (const t of targets) {
    const name = dottedName(t, top);
    if (typeof name !== 'string') return name;
    names.push(name);
  }
  const selection = unique(names);
  const files = unique(targets.map((t) => t.file!)).sort();
  if (django) {
    const read = readArgs(args, DJANGO);
    return { args: [...read.options, '-v', '2', ...selection, ...read.rest], files, pattern: selection.join(' ') };
  }
  if (discover && path.posix.normalize(top) !== path.posix.normalize(cd)) {
    const read = readArgs(args.slice(1), UNITTEST);
    const verbose = read.options.some((o) => o === '-v' || o === '--verbose') ? [] : ['-v'];
    return { args: ['discover', ...verbose, ...read.options, ...selection.flatMap((n) => ['-k', n]), ...read.positionals, ...read.rest], files, pattern: selection.join(' ') };
  }
  const read = readArgs(discover ? args.slice(1) : args, UNITTEST);
  const options: string[] = [];
  for (let i = 0; i < read.options.length; i++) {
    const o = read.options[i];
    const name = o.split('=')[0];
    if (DISCOVER_ONLY.has(name)) {
      if (!o.includes('=')) i++;
      continue;
    }
    options.push(o);
  }
  const verbose = options.some((o) => o === '-v' || o === '--verbose') ? [] : ['-v'];
  return { args: [...verbose, ...options, ...selection, ...read.rest], files, pattern: selection.join(' ') };
}

/** `tests/test_calc.py > TestCalc > test_many` → `tests.test_calc.TestCalc.test_many`, from `top`; a fixture → its class or module. */
function dottedName(t: TargetTest, top: string): string | { why: string } {
  if (!t.file || !/\.py$/.test(t.file)) return { why: `"${t.id}" names no Python file unittest could import` };
  const rel = path.posix.relative(path.posix.normalize(top), path.posix.normalize(t.file));
  if (rel.startsWith('..') || path.posix.isAbsolute(rel)) return { why: `${t.file} is outside ${top}, where unittest imports its test modules from` };
  const module = rel.replace(/\.py$/, '').replace(/\/__init__$/, '').split('/');
  if (!module.every((p) => /^[A-Za-z_]\w*$/.test(p))) return { why: `${t.file} is not a module name unittest can import` };
  const titles = t.id.split(' > ').slice(1);
  if (titles.length === 0) return { why: `"${t.id}" names no test` };
  const leaf = titles[titles.length - 1];
  // A class's fixture runs with the class, a module's with the module.
  const named = FIXTURE.test(leaf) ? titles.slice(0, -1) : titles;
  return [...module, ...named].join('.');
}

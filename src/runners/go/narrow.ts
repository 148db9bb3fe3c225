// go test narrowed to packages and an anchored -run.
import { escapeRegExp, readArgs, titles, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const GO: OptionTable = {
  valued: new Set(['-run', '-skip', '-bench', '-count', '-cpu', '-parallel', '-timeout', '-tags', '-p', '-coverprofile', '-covermode',
    '-coverpkg', '-o', '-exec', '-list', '-shuffle', '-benchtime', '-mod', '-modfile', '-ldflags', '-gcflags', '-C', '-vet',
    '-outputdir', '-blockprofile', '-cpuprofile', '-memprofile', '-mutexprofile', '-trace', '-fuzz', '-fuzztime', '-asmflags', '-overlay',
    '--run', '--skip', '--count', '--timeout', '--tags']),
  dropped: new Set(['-run', '--run', '-list']),
};

/**
 * go selects packages by directory and tests with -run, whose pattern is split at "/" into one pattern per level:
 * the top-level test is anchored (a failing subtest's parent runs all of its subtests; go names subtests apart by
 * their parent). go prints a failing test's file as a base name, so the package is found in the workspace's files;
 * a base name in no or several folders leaves the packages as the command named them.
 */
export function narrowGo(args: readonly string[], targets: readonly TargetTest[], files: readonly string[] | undefined): RunnerNarrowing | { why: string } {
  // Everything after -args goes to the test binary.
  const cut = args.indexOf('-args');
  const own = cut >= 0 ? args.slice(0, cut) : args;
  const binary = cut >= 0 ? args.slice(cut) : [];
  const read = readArgs(own, GO);
  const tops = unique(targets.map((t) => titles(t.id)[0]));
  const pattern = `^(?:${tops.map(escapeRegExp).join('|')})$`;
  const packages = goPackages(targets, files);
  const verbose = read.options.some((o) => o === '-v' || o === '-json' || o.startsWith('-v=') || o.startsWith('-json=')) ? [] : ['-v'];
  return { args: [...read.options, ...verbose, '-run', pattern, ...(packages ?? read.positionals), ...read.rest, ...binary], files: packages, pattern };
}

function goPackages(targets: readonly TargetTest[], files: readonly string[] | undefined): string[] | null {
  if (!files || targets.some((t) => !t.file)) return null;
  const dirs: string[] = [];
  for (const t of targets) {
    const file = t.file!.replace(/\\/g, '/');
    const base = file.split('/').pop()!;
    const matches = file.includes('/') ? files.filter((f) => f === file) : files.filter((f) => f === base || f.endsWith(`/${base}`));
    const found = unique(matches.map((f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.')));
    if (found.length !== 1) return null;
    dirs.push(found[0] === '.' ? '.' : `./${found[0]}`);
  }
  return unique(dirs).sort();
}

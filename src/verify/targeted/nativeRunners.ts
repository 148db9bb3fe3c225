// pytest, go test and cargo test narrowed with their own selection: node ids, packages with an anchored -run, and
// exact test names.
import { escapeRegExp, readArgs, titles, unique } from './args';
import type { OptionTable, TargetTest } from './args';
import type { RunnerNarrowing } from './jsRunners';

export type NativeNarrowing = RunnerNarrowing | { why: string };

const PYTEST: OptionTable = {
  valued: new Set(['-k', '-m', '-p', '-c', '-o', '--rootdir', '--junitxml', '--junit-xml', '--tb', '--maxfail', '-W', '--deselect',
    '--ignore', '--ignore-glob', '--cov', '--cov-report', '--durations', '-n', '--numprocesses', '--basetemp', '--confcutdir',
    '--import-mode', '-r', '--log-level', '--capture', '--override-ini', '--config-file', '--dist', '--timeout', '--pyargs']),
  dropped: new Set(['-k', '--lf', '--last-failed', '--ff', '--failed-first', '--sw', '--stepwise', '--nf', '--new-first']),
};

/** "tests/t.py > TestX > test_y[a > b]" → "tests/t.py::TestX::test_y[a > b]" (a parameter id may hold " > "). */
function pytestNodeId(id: string): string | null {
  const bracket = id.indexOf('[');
  const head = bracket < 0 ? id : id.slice(0, bracket);
  const params = bracket < 0 ? '' : id.slice(bracket);
  const parts = titles(head);
  if (parts.length < 2 || !/\.py$/.test(parts[0])) return null;
  return parts.join('::') + params;
}

/**
 * pytest selects by node id, file and test at once. A test named without its file (some report layouts) falls back to
 * -k, which takes plain names only. -rA lists the passing tests too: a narrowed run must show that each one ran.
 */
export function narrowPytest(args: readonly string[], targets: readonly TargetTest[]): NativeNarrowing {
  const read = readArgs(args, PYTEST);
  const listing = ['-rA'];
  const ids = targets.map((t) => pytestNodeId(t.id));
  if (ids.every((id): id is string => id !== null)) {
    const nodeIds = unique(ids);
    const files = unique(nodeIds.map((id) => id.split('::')[0])).sort();
    return { args: [...read.options, ...listing, ...nodeIds, ...read.rest], files, pattern: nodeIds.join(' ') };
  }
  const names = unique(targets.map((t) => titles(t.id.replace(/\[.*$/, '')).pop() ?? ''));
  if (!names.every((n) => /^[A-Za-z_]\w*$/.test(n))) {
    return { why: `pytest names a test without its file and "${names.find((n) => !/^[A-Za-z_]\w*$/.test(n))}" is not a name -k can select` };
  }
  const pattern = names.join(' or ');
  return { args: [...read.options, ...listing, '-k', pattern, ...read.positionals, ...read.rest], files: null, pattern };
}

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
export function narrowGo(args: readonly string[], targets: readonly TargetTest[], files: readonly string[] | undefined): NativeNarrowing {
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

const CARGO: OptionTable = {
  valued: new Set(['-p', '--package', '--exclude', '-j', '--jobs', '--features', '-F', '--target', '--target-dir', '--manifest-path',
    '--profile', '--color', '--message-format', '--test', '--bench', '--bin', '--example', '-Z', '--config', '--lockfile-path']),
  dropped: new Set([]),
};
const CARGO_BINARY: OptionTable = {
  valued: new Set(['--test-threads', '--skip', '--format', '--color', '-Z', '--logfile', '--shuffle-seed', '--report-time']),
  dropped: new Set(['--exact']),
};

/**
 * cargo test takes one name before `--` and any number after it, for every test binary; --exact makes each name the
 * whole path of one test. Doc tests ("src/lib.rs - add (line 5)") have no name a filter selects.
 */
export function narrowCargo(args: readonly string[], targets: readonly TargetTest[]): NativeNarrowing {
  const doc = targets.find((t) => / - .* \(line \d+\)$/.test(t.id));
  if (doc) return { why: `"${doc.id}" is a doc test, which cargo cannot select by name` };
  const read = readArgs(args, CARGO);
  const binary = readArgs(read.rest.slice(1), CARGO_BINARY);
  const names = unique(targets.map((t) => titles(t.id).join('::')));
  // The positional before `--` was the command's own name filter: the exact names replace it.
  return { args: [...read.options, '--', ...binary.options, '--exact', ...names], files: null, pattern: names.join(' ') };
}

// pytest narrowed by node id (file and test at once), or by -k where a test is named without its file.
import { readArgs, titles, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

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
export function narrowPytest(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
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

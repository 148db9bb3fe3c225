// dotnet test narrowed with --filter: `FullyQualifiedName=Ns.Class.Method` (xUnit and MSTest name a theory's rows
// apart only by their display name, so a row's method runs whole) and `FullyQualifiedName~Ns.Class.Method(` for NUnit,
// whose full names carry the arguments; a nested class is `Outer+Inner` there.
import { readArgs, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';
import { parseDotnetId } from './ids';

const DOTNET: OptionTable = {
  valued: new Set(['--filter', '-c', '--configuration', '-f', '--framework', '-r', '--runtime', '-o', '--output', '-s',
    '--settings', '-l', '--logger', '-v', '--verbosity', '-a', '--test-adapter-path', '-d', '--diag', '--results-directory',
    '--collect', '--blame-crash-dump-type', '--blame-hang-timeout', '--blame-hang-dump-type', '-e', '--environment', '--arch',
    '--os', '-t', '--list-tests']),
  dropped: new Set(['--filter']),
};

/** The characters VSTest's filter syntax gives a meaning to, escaped with a backslash. */
function escapeFilter(s: string): string {
  return s.replace(/[\\()&|=!~]/g, '\\$&');
}

export function narrowDotnet(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  const clauses: string[] = [];
  for (const t of targets) {
    const test = parseDotnetId(t.id);
    if (!test) return { why: `"${t.id}" names no class (NUnit and MSTest print the method alone when no stack frame names it), so --filter cannot select it` };
    const name = `${test.className}.${test.method}`;
    clauses.push(`FullyQualifiedName=${escapeFilter(name)}`, `FullyQualifiedName~${escapeFilter(`${name}(`)}`);
  }
  const pattern = unique(clauses).join('|');
  const read = readArgs(args, DOTNET);
  return { args: [...read.positionals, ...read.options, '--filter', pattern, ...read.rest], files: null, pattern };
}

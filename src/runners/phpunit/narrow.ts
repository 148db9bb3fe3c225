// PHPUnit narrowed with --filter: an anchored regex of the names PHPUnit filters by (`Class::method with data set #1`,
// `Class::method with data set "name"`), so a data set runs alone and a method without one runs with all of its data sets.
import { readArgs, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';
import { parseId } from './ids';

const PHPUNIT: OptionTable = {
  valued: new Set(['--filter', '-c', '--configuration', '--bootstrap', '--log-junit', '--log-teamcity', '--testdox-html',
    '--testdox-text', '--testdox-xml', '--coverage-clover', '--coverage-cobertura', '--coverage-crap4j', '--coverage-html',
    '--coverage-php', '--coverage-text', '--coverage-xml', '--coverage-filter', '--include-path', '-d', '--group',
    '--exclude-group', '--covers', '--uses', '--test-suffix', '--testsuite', '--printer', '--order-by',
    '--random-order-seed', '--cache-result-file', '--columns', '--loader', '--repeat', '--default-time-limit',
    '--whitelist', '--extensions']),
  dropped: new Set(['--filter', '--testsuite', '--group']),
};

/** PCRE's special characters, and the pattern's own delimiter. */
function escapePcre(s: string): string {
  return s.replace(/[\\^$.|?*+()[\]{}/#-]/g, '\\$&');
}

export function narrowPhpunit(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  if (args.some((a) => a === '--testdox')) {
    return { why: 'phpunit --testdox names tests in prose, which --filter cannot select; run it without --testdox to narrow the run' };
  }
  const names: string[] = [];
  for (const t of targets) {
    const test = parseId(t.id);
    if (!test) return { why: `"${t.id}" is not a PHPUnit test's ID (Class > method, or Class > method > data set)` };
    const base = `${escapePcre(test.className)}::${escapePcre(test.method)}`;
    // A method's ID without a data set is the method whole: its data sets (or PHPUnit's stand-in for a broken provider).
    names.push(test.dataSet === null ? `${base}(?: with data set .*)?` : `${base} with data set ${escapePcre(test.dataSet)}`);
  }
  const pattern = `/^(?:${unique(names).join('|')})$/`;
  const read = readArgs(args, PHPUNIT);
  return { args: [...read.options, '--filter', pattern, ...read.positionals, ...read.rest], files: null, pattern };
}

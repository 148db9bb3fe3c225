// ctest narrowed to its tests' names: `-R '^(a|b)$'`, each name escaped for CMake's regular expressions.
import { readArgs, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const CTEST: OptionTable = {
  valued: new Set(['-C', '--build-config', '-j', '--parallel', '-L', '--label-regex', '-LE', '--label-exclude', '-E', '--exclude-regex',
    '-R', '--tests-regex', '-I', '--tests-information', '--test-dir', '--output-junit', '--timeout', '--stop-time', '-O', '--output-log',
    '--repeat', '--repeat-until-fail', '-D', '--dashboard', '-T', '--test-action', '-M', '--test-model', '-S', '--script', '-SP',
    '--script-new-process', '-A', '--add-notes', '--resource-spec-file', '--test-load', '--max-width', '--tests-from-file',
    '--exclude-from-file', '-FA', '--fixture-exclude-any', '-FS', '--fixture-exclude-setup', '-FC', '--fixture-exclude-cleanup',
    '--test-output-size-passed', '--test-output-size-failed', '--test-output-truncation', '--no-tests', '--label-summary']),
  // The command's own selection: the failing tests' names replace it (a test-number range would hide them).
  dropped: new Set(['-R', '--tests-regex', '-I', '--tests-information', '-E', '--exclude-regex', '--tests-from-file', '--exclude-from-file']),
};

/** A CMake regular expression matching `s` literally (cmsys: `\` quotes the next character). */
export function escapeCmakeRegex(s: string): string {
  return s.replace(/[.*+?^$()[\]\\|]/g, '\\$&');
}

export function narrowCtest(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  const read = readArgs(args, CTEST);
  const names = unique(targets.map((t) => t.id));
  const pattern = `^(${names.map(escapeCmakeRegex).join('|')})$`;
  return { args: [...read.options, ...read.positionals, '-R', pattern, ...read.rest], files: null, pattern };
}

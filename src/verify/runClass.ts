// What a finished test run was, beyond its failing tests: a suite that did not load, an output Greenloop cannot read,
// tests that all passed under a command that failed anyway, or a run of no test at all. One rule each, in one place,
// so `verify` and the loop never disguise one as another.
import type { ParsedOutput } from '../runners/parseOutput';
import { runnerOfFormat, unreadableOutput } from '../runners/registry';

export interface RunFacts {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Failing tests the parser named (after de-duplication). */
  named: number;
  /** passed + failed, when the runner says. */
  executed: number | null;
  /** The run's output, normalized (for the tail quoted in a sentence). */
  output: string;
}

export interface RunClass {
  loadError: boolean;
  /** Why nothing can be known about the tests from this output, or null. */
  unreadable: string | null;
  /** Every test passed but the command failed: what it said. */
  commandFailure: string | null;
  /** The runner reports that no test executed. */
  noTests: string | null;
}

export function classifyRun(parsed: ParsedOutput, f: RunFacts): RunClass {
  const over = f.timedOut || f.cancelled;
  // A reporter that counts failures without naming them (jest --reporters=summary): the counts say tests failed,
  // but not which — nothing to fix against, and no reason to call it a suite that did not load.
  const unnamed = !over && f.named === 0 && (parsed.failedCount ?? 0) > 0;
  const unreadable = over ? null
    : parsed.runner === null ? `The test command's output is ${describeUnknown(f)}, not a test report Greenloop reads`
    : unnamed ? `The test output counts ${parsed.failedCount} failing test${parsed.failedCount === 1 ? '' : 's'} but names none (${runnerOfFormat(parsed.runner)?.summaryReporter ?? 'a summary-only reporter'})`
    : null;
  const executed = f.executed ?? 0;
  // Every test ran and passed, yet the command failed (a coverage threshold, a lint step after the tests).
  const afterTests = f.exitCode !== 0 && !over && !unreadable && !parsed.loadError && f.named === 0 && (parsed.failedCount ?? 0) === 0 && executed > 0;
  const commandFailure = afterTests
    ? `All ${executed} tests passed, but the test command exited with code ${f.exitCode ?? f.signal}; its last output:\n${lastLines(f.output, 15)}`
    : null;
  // A non-zero exit that a known runner's output does not explain is a suite that did not run properly.
  const unexplained = f.exitCode !== 0 && f.named === 0 && !afterTests && !unreadable;
  const loadError = !unreadable && (parsed.loadError || unexplained || f.timedOut);
  const noTests = !loadError && !unreadable && !over && f.executed === 0
    ? `The test command ran no tests${parsed.skippedCount ? ` (${parsed.skippedCount} skipped)` : ''}; check its filter or test path — a run that executes no test is never green.`
    : null;
  return {
    loadError,
    unreadable: unreadable ? `${unreadable}; run the tests with a reporter that names each test (the runner's default, or one in the README's runner table, JSON reporters included).` : null,
    commandFailure,
    noTests,
  };
}

function describeUnknown(f: RunFacts): string {
  const text = f.output.trim();
  const exit = `exit code ${f.exitCode ?? f.signal ?? '—'}`;
  if (text === '') return `empty (${exit})`;
  if (/^::(?:error|warning|notice)\b/m.test(text)) return `GitHub Actions annotations only (${exit}; a github-actions reporter)`;
  // A runner's own reporter that names no test (node --test's dot reporter), as its room describes it.
  const reporter = unreadableOutput(text, exit);
  if (reporter) return reporter;
  return `not one Greenloop recognises (${exit}): "${lastLines(text, 1).slice(0, 120)}"`;
}

export function lastLines(text: string, n: number): string {
  return text.replace(/\s+$/, '').split('\n').slice(-n).join('\n');
}

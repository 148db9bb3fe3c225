// A test command that cannot run at all — a script package.json does not have, a file that is not executable, a
// runner that found no test files — is a setup problem, not a failing suite: no model can fix it, so it is told in
// one sentence before any model call.
import type { RunResult } from '../base/process/runCommand';

const MISSING_SCRIPT = [
  /\bMissing script:\s*"?([^"\s]+)"?/, // npm, pnpm
  /\bCouldn't find a script named "([^"]+)"/, // yarn berry
  /\berror Command "([^"]+)" not found/, // yarn 1
];

/** What runners print when they find no test file to run, with the path or pattern where they say it. */
const NO_TEST_FILES = [
  /\bError: No test files found:?\s*(.*)/, // mocha
  /^Could not find '([^']+)'/m, // node --test
  /\bNo test files found, exiting with code \d+/, // vitest
  /\bNo tests found, exiting with code \d+/, // jest
  /^(?:=+ )?no tests ran\b/m, // pytest (exit code 5)
  /^NO TESTS RAN$/m, // python -m unittest 3.12+ (exit code 5)
  // go test: a package pattern that matched nothing, a folder without Go files or that does not exist (exit code 1)
  /^go: warning: "[^"\n]+" matched no packages$(?=[\s\S]*^no packages to test$)/m,
  /^no packages to test$/m,
  /^no Go files in \S.*$/m,
  /^pattern \S+: lstat \S+: no such file or directory$/m,
  /^stat \S.*: directory not found$/m,
];

/** One sentence saying why the command cannot run, or null when it ran (whatever its tests said). */
export function cannotRunSentence(run: Pick<RunResult, 'exitCode' | 'output'>, command: string, cwd: string, namedFailures: number): string | null {
  if (run.exitCode === 0 || run.exitCode === null || namedFailures > 0) return null;
  const shown = `\`${oneLine(command)}\``;
  for (const re of MISSING_SCRIPT) {
    const m = re.exec(run.output);
    if (m) return `The test command ${shown} cannot run: package.json in ${cwd} has no "${m[1]}" script; add that script or choose another test command.`;
  }
  if (run.exitCode === 126) {
    const why = lastLine(run.output);
    return `The test command ${shown} cannot run (exit code 126${why ? `: ${why}` : ''}); make the file executable or run it through its interpreter.`;
  }
  for (const re of NO_TEST_FILES) {
    const m = re.exec(run.output);
    if (m) return `The test command ${shown} found no tests to run (${oneLine(m[0]).replace(/[.:]$/, '')}); check its test path or pattern.`;
  }
  return null;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return oneLine(lines[lines.length - 1] ?? '');
}

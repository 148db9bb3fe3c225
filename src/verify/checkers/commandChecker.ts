// Runs one check command (`--check CMD`) and reads what it printed into diagnostics, or says in one sentence why it
// cannot: the checker is not installed, crashed, printed something no reader knows, or ran out of time. Never an
// empty "clean" result for an output nobody understood.
import { runCommand } from '../../base/process/runCommand';
import type { RunResult } from '../../base/process/runCommand';
import type { CheckerFormat, CheckerReport, CheckRunOptions } from './checkerTypes';
import { firstLine } from './readers/readerTools';
import { chooseReader, formatNames } from './readerChoice';
import { withAnalysedFiles } from './analysedFiles';

export interface CheckSpec {
  /** The shell command, as the person wrote it. */
  command: string;
  /** The reader to use; absent or 'auto': detected from the output, then from the command's words. */
  format?: CheckerFormat | 'auto';
  /** Count warnings as well as errors. */
  warnings?: boolean;
  /** The check's own fixer (`CMD:format:fix=FIXCMD`), run as it is written before the first model call. */
  fix?: string;
}

export type CheckFailureKind = 'not-installed' | 'crashed' | 'unrecognised' | 'timed-out' | 'cancelled' | 'cut';

export type CheckOutcome =
  | { ok: true; command: string; report: CheckerReport; exitCode: number | null; durationMs: number }
  | { ok: false; command: string; kind: CheckFailureKind; sentence: string; exitCode: number | null; durationMs: number };

/**
 * Reports are read whole: a JSON report cut in the middle is no report. Far above what a checker prints for a real
 * project, and still a bound on memory.
 */
export const CHECK_OUTPUT_BYTES = 64 * 1024 * 1024;

export async function runCheck(spec: CheckSpec, opts: CheckRunOptions): Promise<CheckOutcome> {
  const run = await runCommand({
    command: spec.command, cwd: opts.cwd, env: opts.env, timeoutMs: opts.timeoutMs, signal: opts.signal,
    headBytes: CHECK_OUTPUT_BYTES, tailBytes: 1024 * 1024,
  });
  const outcome = readCheck(spec, run, opts.cwd, opts.timeoutMs);
  // What go vet and cargo checked is whole only with what their reports leave out (analysedFiles.ts).
  return outcome.ok ? { ...outcome, report: await withAnalysedFiles(outcome.report, run.output, opts) } : outcome;
}

/** The verdict on a finished run of a check command (split from runCheck so captured runs can be judged too). */
export function readCheck(spec: CheckSpec, run: RunResult, cwd: string, timeoutMs?: number): CheckOutcome {
  const shown = `\`${oneLine(spec.command)}\``;
  const base = { command: spec.command, exitCode: run.exitCode, durationMs: run.durationMs };
  const fail = (kind: CheckFailureKind, sentence: string): CheckOutcome => ({ ok: false, kind, sentence, ...base });

  if (run.cancelled) return fail('cancelled', `The check command ${shown} was stopped before it finished.`);
  if (run.timedOut) {
    const limit = timeoutMs ? ` within ${Math.round(timeoutMs / 1000)} s` : '';
    return fail('timed-out', `The check command ${shown} did not finish${limit}; raise the verify timeout or make the check faster.`);
  }
  if (run.notFound) {
    // sh: "/bin/sh: 2: NAME: not found"; bash: "bash: line 1: NAME: command not found"; zsh: "command not found: NAME".
    const missing = /([^\s:]+): (?:command )?not found/.exec(run.output)?.[1] ?? /command not found: (\S+)/.exec(run.output)?.[1];
    const what = missing ? `\`${missing}\` is not installed or not on PATH` : 'its program is not installed or not on PATH';
    return fail('not-installed', `The check command ${shown} cannot run: ${what}; install it or fix the command.`);
  }
  if (run.droppedBytes > 0) {
    return fail('cut', `The check command ${shown} printed more than ${CHECK_OUTPUT_BYTES / 1024 / 1024} MB, so its report could not be read whole; check fewer files per command.`);
  }

  const format = spec.format === 'auto' ? undefined : spec.format;
  const reader = chooseReader(run.output, spec.command, format);
  const exit = run.signal ? `was killed by ${run.signal}` : `exited with code ${run.exitCode}`;
  const failed = run.signal !== null || (run.exitCode !== null && run.exitCode !== 0);
  const said = firstErrorLine(run.output);
  const crashed = (): CheckOutcome =>
    fail('crashed', `The check command ${shown} ${exit} without a report${said ? ` ("${said}")` : ''}; fix the checker's installation or configuration.`);

  if (run.output.trim() === '' && !(reader?.silentWhenClean && !failed)) {
    if (failed) return crashed();
    return fail('unrecognised', `The check command ${shown} printed nothing, so what it checked cannot be known; make it print its report to the terminal (not to a file).`);
  }
  if (!reader) {
    if (failed) return crashed();
    return fail('unrecognised', `The check command ${shown} printed output no checker reader recognises ("${firstLine(run.output, 80)}"); make it print one of these formats or name the format: ${formatNames()}.`);
  }
  // GCC-style findings are called after the program (clang, clang-format); `dotnet format`'s are not `dotnet build`'s.
  const source = reader.format === 'gcc' ? programName(spec.command) : reader.format === 'msbuild' && /\bdotnet\s+format\b/.test(spec.command) ? 'dotnet format' : undefined;
  const read = reader.read(run.output, { cwd, warnings: spec.warnings, source });
  if (!read.ok) {
    if (failed) return crashed();
    return fail('unrecognised', `The check command ${shown} did not print what ${reader.tool} prints: ${read.reason}.`);
  }
  // A checker that failed yet reported nothing at all did not check (pyright with a broken config prints an empty report).
  if (failed && read.report.all.length === 0) return crashed();
  if (read.report.checkedCount === 0 && read.report.all.length === 0) {
    return fail('unrecognised', `The check command ${shown} checked no files; point it at the workspace's sources.`);
  }
  return { ok: true, report: read.report, ...base };
}

/** The line of an output most likely to say what went wrong: the first naming an error, else the last. */
function firstErrorLine(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^[━─╭╰│>|^~\s]/.test(l));
  const line = lines.find((l) => /\b(?:error|fatal|failed|cannot|could not|couldn't|invalid|exception|panic|doesn't exist|not found)\b/i.test(l)) ?? lines[lines.length - 1] ?? '';
  return oneLine(line).slice(0, 200);
}

/** What a GCC-style checker's findings are called: the program the command runs ("shellcheck", "clang"). */
export function programName(command: string): string {
  const words = command.trim().split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, '')).filter((w) => !/^\w+=/.test(w));
  const skip = new Set(['npx', 'pnpx', 'bunx', 'exec', 'env', 'uv', 'run', 'poetry', 'pipx', 'python', 'python3', '-m', 'npm', 'pnpm', 'yarn', '--']);
  const word = words.find((w) => !skip.has(w) && !w.startsWith('-')) ?? words[0] ?? 'check';
  return word.split(/[\\/]/).pop() || 'check';
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

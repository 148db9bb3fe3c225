// `greenloop fix --format github` (and any fix inside a GitHub Actions job): the platform's language for one run.
// Masks the key, groups each attempt's progress lines, and at the end writes the patch, the job summary, the
// annotations and the step outputs. Loaded by the CLI from dist/action.js only in that mode (see
// ../cli/githubWriters.ts): @actions/core brings ~430 KB the CLI's other commands never need.
import * as core from '@actions/core';
import { execFileSync } from 'child_process';
import * as path from 'path';
import { annotationsFor } from './annotations';
import { jobSummary } from './jobSummary';
import { outputsFor } from './outputs';
import { touchedFiles, writePatch } from './patch';
import { isFullReport } from './runFacts';
import { localPlaces, runLinkOf, withoutLocalPaths } from './runPlace';
import type { AnyReport, RunDetails, RunFacts } from './runFacts';

/** The patch sits next to the report: report.json → report.patch. */
export function patchPathFor(reportPath: string): string {
  const ext = path.extname(reportPath);
  return `${ext ? reportPath.slice(0, -ext.length) : reportPath}.patch`;
}

/** Hides each value in every later log line of the job (GitHub replaces it with ***). */
export function mask(values: Array<string | undefined>): void {
  onStderr(() => {
    for (const v of values) if (v) core.setSecret(v);
  });
}

/**
 * The runner reads workflow commands from stderr as from stdout (actions/runner ScriptHandler.cs feeds both to one
 * ActionCommandManager). The CLI's stdout is the contract's: the --json report and nothing else, so the commands
 * @actions/core would print there go to stderr, in order with the progress lines.
 */
function onStderr(fn: () => void): void {
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    fn();
  } finally {
    process.stdout.write = write;
  }
}

/** A legacy `##[command]` is read anywhere in a line: one quoted from a test's output must stay text. */
export const inert = (line: string): string => line.replace(/##\[/g, '#\u2060#[');

/** What a progress line is: an attempt opening, its verdict, or anything else. */
export type ProgressKind = 'attempt-started' | 'attempt-verdict' | 'other';

/**
 * Progress lines as a person reads them in the Actions log: each attempt's lines in a collapsed group titled with
 * its number, its verdict line just after the group so the log reads as a list of verdicts.
 * The group commands go to the same stream as the lines (`say`), so they can never arrive out of order.
 */
export function groupedProgress(say: (line: string) => void): { line(kind: ProgressKind, text: string, attempt?: string): void; close(): void } {
  let open = false;
  const close = () => {
    if (open) say('::endgroup::');
    open = false;
  };
  return {
    line(kind, text, attempt) {
      if (kind === 'attempt-started') {
        close();
        say(`::group::Greenloop attempt ${attempt ?? ''}`.trimEnd());
        open = true;
      }
      if (kind === 'attempt-verdict') close();
      say(inert(text));
    },
    close,
  };
}

export interface FinishOptions {
  report: AnyReport;
  details?: RunDetails;
  reportPath: string;
  /** The working directory of the run (the runner's and checkers' file names are relative to it). */
  cwd: string;
  /** Masks what the run's redactor masks (the key, tokens found in the environment). */
  redact: (text: string) => string;
}

/** Writes the patch, the job summary, the annotations and the outputs of a finished (or unstartable) run. */
export async function finishRun(opts: FinishOptions): Promise<RunFacts> {
  const facts: RunFacts = { report: opts.report, details: opts.details, reportPath: opts.reportPath, run: runLinkOf(process.env) };
  if (isFullReport(opts.report)) {
    facts.patch = await writePatch({ cwd: opts.cwd, files: touchedFiles(opts.report), patchPath: patchPathFor(opts.reportPath) })
      .catch((err: Error) => ({ path: '', text: '', files: 0, added: 0, removed: 0, none: `it could not be made (${err.message}).` }));
  }
  const outputs = outputsFor(facts);
  onStderr(() => {
    for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
  });
  onStderr(() => {
    for (const a of annotationsFor(facts, { cwd: opts.cwd, repoRoot: repoRoot(opts.cwd) })) {
      const props = { title: opts.redact(a.title), file: a.file, startLine: a.startLine, startColumn: a.startColumn };
      core[a.level](opts.redact(a.message), props);
    }
  });
  // Read on github.com and sent as a pull request's body: no runner path in it (the run and its artifacts are linked).
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(withoutLocalPaths(opts.redact(jobSummary(facts)), localPlaces(process.env)), true).write();
  return facts;
}

/** Where GitHub anchors annotations: the repository's top level, else the checkout (GITHUB_WORKSPACE), else the working directory. */
function repoRoot(cwd: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return path.resolve(process.env.GITHUB_WORKSPACE || cwd);
  }
}

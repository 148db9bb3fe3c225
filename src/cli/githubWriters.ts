// `greenloop fix --format github`, on by itself inside a GitHub Actions job (GITHUB_ACTIONS=true): the hook the fix
// command calls. The writers themselves are the action's (src/action/githubFormat.ts); they ship in dist/action.js with
// @actions/core (~430 KB), which this file loads only in that mode, so no other command pays for it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { LoopEvent } from '../core/loop/events';
import type { Redactor } from '../base/redact';
import type { RunState } from '../ports/runState';
import type { AnyReport, RunDetails } from '../action/runFacts';
import { UsageError } from '../flags/usageError';

type Writers = typeof import('../action/githubFormat');

export interface FormatFlags {
  format?: string;
  report?: string;
}

/** Whether this run speaks GitHub's language; a --format it does not know is a usage error. */
export function isGithubFormat(values: FormatFlags, env: NodeJS.ProcessEnv = process.env): boolean {
  const format = values.format ?? (env.GITHUB_ACTIONS === 'true' ? 'github' : 'text');
  if (format !== 'github' && format !== 'text') throw new UsageError(`--format must be text or github (got "${format}").`);
  return format === 'github';
}

/** In GitHub's format the report is always a file (for actions/upload-artifact), by default in the runner's temp. */
export function githubReportPath(values: FormatFlags, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(values.report ?? path.join(env.RUNNER_TEMP || os.tmpdir(), 'greenloop', 'report.json'));
}

function writers(): Writers {
  // A computed path: esbuild leaves it to Node at run time instead of bundling the writers into dist/cli.js.
  const bundled = path.join(__dirname, 'action.js');
  if (!fs.existsSync(bundled)) throw new Error(`--format github needs ${bundled}, built with the CLI by \`npm run build\`.`);
  return require(bundled) as Writers;
}

export function maskForGithub(values: Array<string | undefined>): void {
  writers().mask(values);
}

/** A progress listener for `line`s made by progressLine: each attempt in a collapsed group of the job's log. */
export function githubProgress(say: (line: string) => void): (e: LoopEvent, line: string) => void {
  const groups = writers().groupedProgress(say);
  return (e, line) => {
    if (e.type === 'iteration-started') groups.line('attempt-started', line, `${e.n}/${e.max}`);
    else if (e.type === 'verified' || e.type === 'escalated' || e.type === 'finished') groups.line('attempt-verdict', line);
    else groups.line('other', line);
  };
}

export async function finishGithub(opts: { report: AnyReport; state?: RunState; reportPath: string; cwd: string; redactor: Redactor }): Promise<void> {
  await writers().finishRun({
    report: opts.report,
    details: opts.state ? detailsOf(opts.state) : undefined,
    reportPath: opts.reportPath,
    cwd: opts.cwd,
    redact: (t) => opts.redactor.text(t),
  });
}

function detailsOf(state: RunState): RunDetails {
  const w = state.current.witness;
  return {
    failures: w.failures.map((f) => ({ id: f.id, file: f.file, message: f.message })),
    diagnostics: w.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, code: d.code, message: d.message, source: d.source ?? 'tsc' })),
    loadErrors: (w.loadErrors ?? []).map((l) => ({ file: l.file, message: l.message })),
    limits: state.limits,
    elapsedMs: state.elapsedBeforeMs + ((state.finishedAt ?? Date.now()) - state.startedAt),
  };
}

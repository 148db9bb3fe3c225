// The Fixers port for a workspace: the fixer of each check (fixerCommand.ts) run one after the other in the workspace,
// with the environment the checks get. A fixer that cannot run, times out or crashes is one sentence, never a stop:
// the model gets the errors as they are. Which exit codes are failures is the tool's own (fixerFamilies.ts): exit code
// 1 is every linter's "findings remain"; phpcbf answers 2 when something stayed unfixed; a formatter fails with 1.
import type { FixTarget, FixerCommand, Fixers } from '../../ports/fixers';
import { runCommand } from '../../base/process/runCommand';
import type { CheckSpec } from '../checkers/commandChecker';
import { fixerOf, type Fixer } from './fixerCommand';

export class ProjectFixers implements Fixers {
  private readonly fixers = new Map<string, Fixer>();

  /** `env`: the checks' environment (the run's secrets withheld). */
  constructor(private readonly cwd: string, checks: readonly CheckSpec[], private readonly env?: NodeJS.ProcessEnv) {
    for (const spec of checks) {
      const choice = fixerOf(spec, cwd);
      if (choice.ok) this.fixers.set(spec.command, choice.fixer);
    }
  }

  fixable(checks: readonly string[]): string[] {
    return checks.filter((c) => this.fixers.has(c));
  }

  async run(targets: readonly FixTarget[], opts: { signal: AbortSignal; timeoutMs?: number }): Promise<FixerCommand[]> {
    const out: FixerCommand[] = [];
    for (const target of targets) {
      const fixer = this.fixers.get(target.check);
      if (!fixer || opts.signal.aborted) continue;
      const command = fixer.command(target.files);
      const run = await runCommand({ command, cwd: this.cwd, env: this.env, timeoutMs: opts.timeoutMs, signal: opts.signal });
      const ran: FixerCommand = { tool: fixer.tool, command, ms: Math.round(run.durationMs), exitCode: run.exitCode };
      const problem = problemOf(fixer, command, run, opts.timeoutMs);
      out.push(problem ? { ...ran, problem } : ran);
    }
    return out;
  }
}

function problemOf(fixer: Fixer, command: string, run: Awaited<ReturnType<typeof runCommand>>, timeoutMs?: number): string | null {
  const shown = `${fixer.tool}'s fixer \`${command.length > 160 ? `${command.slice(0, 159)}…` : command}\``;
  if (run.cancelled) return null;
  if (run.notFound) return `${shown} cannot run: its program is not installed or not on PATH; the model gets the errors instead.`;
  if (run.timedOut) return `${shown} did not finish${timeoutMs ? ` within ${Math.round(timeoutMs / 1000)} s` : ''}; what it changed is judged like any edit, and the model gets what is left.`;
  if (run.signal) return `${shown} was killed by ${run.signal}; what it changed is judged like any edit.`;
  if (run.exitCode !== null && fixer.failed(run.exitCode)) return `${shown} failed (exit code ${run.exitCode}${said(run.output)}); what it changed is judged like any edit, and the model gets what is left.`;
  return null;
}

/** The fixer's first line that names an error, for the sentence. */
function said(output: string): string {
  const line = output.split('\n').map((l) => l.trim()).find((l) => /\b(?:error|fatal|failed|cannot|invalid)\b/i.test(l));
  return line ? `: "${line.slice(0, 160)}"` : '';
}

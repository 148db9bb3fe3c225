// The run's verifier: the workspace's test command (from its test task, setting or package.json) run by the
// core's CommandVerifier, with its output mirrored live into a terminal.
import type { Checker, CheckerResult, TargetedOptions, TargetedRun, TestTarget, Verifier, VerifyOptions } from '../../ports/verifier';
import { SettingsError } from '../config';
import type { CommandVerifier } from '../../verify/commandVerifier';
import type { CheckSpec } from '../../verify/checkers/commandChecker';
import { runtime } from '../loadRuntime';
import type { Witness } from '../../ports/verifier';
import type { TscMode } from '../../shared/config';
import type { TestSpec } from './testSource';
import { forTerminal } from '../../base/terminalText';
import { notLoadedText } from '../../shared/plainWords';
import { isAbortError } from '../../base/abort';

export interface OutputSink {
  write(text: string): void;
  writeLine(text: string): void;
}

export class TerminalVerifier implements Verifier {
  private readonly inner: CommandVerifier;
  private runs = 0;
  private label: string | undefined;
  private runsOfLabel = 0;

  /**
   * `withheldEnv`: variables the test command does not inherit (the model key's). `diagnostics.checks`: greenloop.checks
   * as written; `diagnostics.problems`: the Problems view as the diagnostic source (tsc and the checks then off).
   */
  constructor(
    private readonly spec: TestSpec, tsc: TscMode, timeoutS: number, private readonly sink: () => OutputSink, withheldEnv?: readonly string[],
    diagnostics: { checks?: readonly unknown[]; problems?: Checker & { dispose(): void }; tscBuildInfoDir?: string } = {},
  ) {
    const rt = runtime();
    let checks: CheckSpec[];
    try {
      checks = (diagnostics.checks ?? []).map((c) => rt.checkSpecFromSetting(c));
    } catch (err) {
      throw new SettingsError(`The setting greenloop.checks: ${(err as Error).message} Fix it in Settings (search "greenloop") and run again.`);
    }
    this.problems = diagnostics.problems;
    // The Problems view as the source runs no check: nothing for a fixer to follow.
    this.checks = this.problems ? [] : checks;
    this.withheldEnv = withheldEnv;
    this.inner = new rt.CommandVerifier({
      cwd: spec.cwd, testCommand: spec.command, env: spec.env, withheldEnv, tsc: this.problems ? 'off' : tsc, timeoutMs: timeoutS * 1000,
      onOutput: (chunk) => this.out?.write(chunk), checks, tscBuildInfoDir: diagnostics.tscBuildInfoDir,
    });
  }

  private readonly problems: (Checker & { dispose(): void }) | undefined;
  /** The checks it runs and what their environment withholds: the session runs their fixers the same way. */
  readonly checks: readonly CheckSpec[];
  readonly withheldEnv: readonly string[] | undefined;

  /** Ends what the verifier watches (the Problems view's file watcher): called once its run or check is over. */
  dispose(): void {
    this.problems?.dispose();
  }

  private out: OutputSink | undefined;

  /** Whether "green" includes tsc here: then tsconfig is protected like the tests. */
  get typeChecks(): boolean {
    return this.inner.typeChecks;
  }

  /**
   * Names the test runs from now on in the terminal ("baseline", "attempt 2", "check 3"), as the engine announces
   * them; a second run under the same name (a green confirmed, flaky tests run again whole) says which run it is.
   */
  nameNextRuns(label: string): void {
    this.label = label;
    this.runsOfLabel = 0;
  }

  /** Newly failing tests run again (is the edit to blame, or the test flaky?), shown in the same terminal. */
  async rerun(ids: string[], signal?: AbortSignal): Promise<Witness> {
    this.out = this.sink();
    this.out.writeLine(`\x1b[1m── Greenloop re-run of ${ids.length} newly failing test${ids.length === 1 ? '' : 's'} on the same files (flaky?): ${forTerminal(ids.slice(0, 3).join(', '))}${ids.length > 3 ? ' …' : ''}\x1b[0m`);
    const w = await this.inner.rerun(ids, signal).catch((err: Error) => {
      if (isAbortError(err)) this.out?.writeLine('\x1b[33m── stopped\x1b[0m\n');
      throw err;
    });
    const stillFailing = ids.filter((id) => w.failing.includes(id));
    this.out.writeLine(`── ${stillFailing.length ? `\x1b[31mstill failing: ${stillFailing.length}\x1b[0m` : '\x1b[33mpassed this time: flaky\x1b[0m'}\n`);
    return w;
  }

  /** Only the tests failing in the best state, shown in the same terminal with the narrowed command. */
  async verifyTargeted(targets: readonly TestTarget[], signal?: AbortSignal, opts?: TargetedOptions): Promise<TargetedRun> {
    this.out = this.sink();
    const n = targets.length;
    this.out.writeLine(`\x1b[1m── Greenloop ${forTerminal(this.label ?? 'test run')}: the ${n === 1 ? 'failing test' : `${n} failing tests`} first: ${forTerminal(targets.slice(0, 3).map((t) => t.id).join(', '))}${n > 3 ? ' …' : ''}\x1b[0m`);
    const run = await this.inner.verifyTargeted(targets, signal, opts).catch((err: Error) => {
      if (isAbortError(err)) this.out?.writeLine('\x1b[33m── stopped\x1b[0m\n');
      throw err;
    });
    if (!run.ok) {
      this.out.writeLine(`── cannot be narrowed (${forTerminal(run.why)}): the whole suite runs\n`);
      return run;
    }
    const w = run.witness;
    this.out.writeLine(`── ${forTerminal(run.command)} · ${(w.durationMs / 1000).toFixed(1)} s · ${w.failing.length} failing\n`);
    return run;
  }

  async verify(signal?: AbortSignal, opts?: VerifyOptions): Promise<Witness> {
    this.out = this.sink();
    this.runs += 1;
    this.runsOfLabel += 1;
    const name = this.label === undefined ? `test run ${this.runs}` : this.runsOfLabel === 1 ? this.label : `${this.label}, run ${this.runsOfLabel}`;
    this.out.writeLine(`\x1b[1m── Greenloop ${forTerminal(name)}: ${forTerminal(`${this.spec.command}  (${this.spec.source}, in ${this.spec.cwd})`)}\x1b[0m`);
    try {
      const w = await this.inner.verify(signal, opts);
      if (this.problems) withCheckerResult(w, this.problems.source, await this.problems.run([], signal));
      const failing = w.failing.length + w.diagnostics.length;
      const notLoaded = w.loadErrorFiles.length ? `, ${notLoadedText(w.loadErrorFiles.length)}` : w.loadError ? ', suite did not load' : '';
      const verdict = w.green ? '\x1b[32mgreen\x1b[0m' : `\x1b[31m${w.timedOut ? 'timed out' : `${failing} failing${notLoaded}`}\x1b[0m`;
      this.out.writeLine(`── exit code ${w.exitCode ?? w.signal ?? '—'} · ${(w.durationMs / 1000).toFixed(1)} s · ${verdict}\n`);
      return w;
    } catch (err) {
      // Stopped half-way, the run proves nothing: no count is shown, only that it was stopped.
      if (isAbortError(err)) {
        this.out.writeLine('\x1b[33m── stopped\x1b[0m\n');
        throw err;
      }
      this.out.writeLine(`\x1b[31m── could not run: ${forTerminal((err as Error).message)}\x1b[0m\n`);
      throw err;
    }
  }
}

/** The Problems view's reading joins the witness like a check's: its errors count, a reading that failed is never clean. */
function withCheckerResult(w: Witness, source: string, result: CheckerResult): void {
  if (!result.ok) {
    w.unreadable = true;
    w.checkFailures = [...(w.checkFailures ?? []), result.reason];
    w.warnings = [...w.warnings, result.reason];
    w.green = false;
    return;
  }
  w.diagnostics = [...w.diagnostics, ...result.diagnostics];
  if (result.checked) w.checked = { ...w.checked, [source]: result.checked };
  w.warnings = [...w.warnings, ...result.warnings];
  w.green = w.green && result.diagnostics.length === 0;
}

// The deterministic judge: runs the test command (and tsc), reduces what it saw to a Witness.
import * as fs from 'fs';
import * as path from 'path';
import type { TargetedOptions, TargetedRun, TestTarget, Verifier, VerifyOptions } from '../ports/verifier';
import { CoverageRequest } from './coverage/coverageRequest';
import { VerifyError } from '../ports/verifier';
import type { Diagnostic, FailingTest, LoadErrorFile, ReportedTest, RunnerFormat, Witness } from '../ports/verifier';
import type { FormatOption } from '../runners/types';
import { narrowTestCommand, packageScripts } from './rerunFilter';
import { narrowToTargets } from '../runners/narrow';
import { runnerOfFormat } from '../runners/registry';
import { workspaceFiles } from './workspaceFiles';
import { classifyRun } from './runClass';
import { sharedIdsWarning } from './sharedIds';
import { runnerHints } from '../runners/runnerHint';
import { cannotRunSentence } from './cannotRun';
import { abortError } from '../base/abort';
import { CommandCannotStart, runCommand } from '../base/process/runCommand';
import type { RunResult } from '../base/process/runCommand';
import { normalizeOutput, readableOutput, signatureOf } from '../base/normalize';
import { RepeatedParts } from './repeatedParts';
import { ownCopy } from './ownCopy';
import { parseReports, parseSpool, withOwnReports } from '../runners/parseOutput';
import { OutputSpool } from './outputSpool';
import type { ParsedOutput } from '../runners/parseOutput';
import { detectTsc, splitListedFiles, tscCommand } from './tsc';
import { runChecks } from './checkers/runChecks';
import { FORMAT_EXTENSIONS } from './checkers/checkerTypes';
import type { CheckSpec } from './checkers/commandChecker';
import type { ChecksOutcome } from './checkers/runChecks';
import { SetupError } from './testCommand';
import type { TscMode } from '../shared/config';
import { childEnvironment } from '../base/secretEnv';

export interface CommandVerifierOptions {
  cwd: string;
  testCommand: string;
  tsc: TscMode;
  timeoutMs: number;
  format?: FormatOption;
  /** Read results from JUnit XML files matching this glob (relative to cwd) instead of the console. */
  junitGlob?: string;
  env?: NodeJS.ProcessEnv;
  /** Variables the test command and tsc never see (the model key's), whatever `env` or a re-run's filter adds. */
  withheldEnv?: readonly string[];
  /** Live output, for a terminal a person watches. */
  onOutput?: (chunk: string) => void;
  /** tsc checks incrementally, its build info kept here (the run's state folder, never the workspace). */
  tscBuildInfoDir?: string;
  /** Checkers beside tsc (`--check CMD[:format]`, greenloop.checks): their errors join the diagnostics. */
  checks?: CheckSpec[];
}

const EXCERPT_CHARS = 6000;

export class CommandVerifier implements Verifier {
  /** The runner the last full run was read as: which filter a re-run may use. */
  private lastRunner: RunnerFormat | null = null;
  private readonly repeated: RepeatedParts;

  constructor(private readonly opts: CommandVerifierOptions) {
    if (opts.tsc === 'on' && !detectTsc(opts.cwd)) {
      throw new SetupError(
        `tsc is on but ${opts.cwd} has no tsconfig.json with a local TypeScript (node_modules/.bin/tsc); install typescript or set tsc to off.`,
      );
    }
    this.repeated = new RepeatedParts(opts.cwd);
  }

  inFolder(cwd: string): Verifier {
    // Two folders' tsc runs must not share build info: each would take the other's files for its own.
    const there = new CommandVerifier({ ...this.opts, cwd, onOutput: undefined, tscBuildInfoDir: undefined });
    // The runner the workspace's runs were read as: what narrows the copy's runs to the failing tests.
    there.lastRunner = this.lastRunner;
    return there;
  }

  /** Whether "green" includes the workspace's own tsc (on, or auto with a tsconfig and a local TypeScript). */
  get typeChecks(): boolean {
    return this.opts.tsc !== 'off' && detectTsc(this.opts.cwd) !== null;
  }

  async verify(signal?: AbortSignal, opts: VerifyOptions = {}): Promise<Witness> {
    const { cwd, testCommand, timeoutMs } = this.opts;
    const started = Date.now();
    const { run: tests, parsed } = await this.runAndRead(testCommand, this.opts.env, timeoutMs, started, signal, this.opts.onOutput);
    // A run stopped half-way is no witness of anything: its failures are the kill's, not the code's.
    if (tests.cancelled) throw abortError(signal);
    if (tests.notFound) throw new VerifyError(`Test command not found: ${testCommand} (run in ${cwd}).`);
    const cannotRun = cannotRunSentence(tests, testCommand, cwd, parsed.failing.length);
    if (cannotRun) throw new VerifyError(cannotRun);
    this.lastRunner = parsed.runner;

    let diagnostics: Diagnostic[] = [];
    let tscOutput = '';
    const checked: Record<string, string[]> = {};
    const tsc = this.opts.tsc === 'off' || opts.skipCheckers?.includes('tsc') ? null : detectTsc(cwd);
    if (tsc && !tests.timedOut && !tests.cancelled) {
      const remaining = Math.max(1000, timeoutMs - (Date.now() - started));
      const command = tscCommand(tsc, { buildInfoDir: this.opts.tscBuildInfoDir, listFiles: true });
      const { run, parsed: read } = await this.runAndRead(command, this.opts.env, remaining, started, signal, undefined, 'tsc');
      if (run.cancelled) throw abortError(signal);
      const { files, rest } = splitListedFiles(run.output, cwd);
      tscOutput = rest;
      if (run.timedOut) return this.witness(tests, parsed, [], `${tests.output}\n${tscOutput}`, started, true, true);
      checked.tsc = files;
      diagnostics = read.diagnostics.map((d) => this.repeated.diagnostic({ ...d, file: relativize(d.file, cwd), source: 'tsc' }));
    }
    const witness = this.witness(tests, parsed, diagnostics, `${tests.output}\n${tscOutput}`, started, tests.timedOut, true);
    if (tsc) {
      witness.checked = checked;
      witness.checkers = { tsc: { sources: ['tsc'], extensions: [...FORMAT_EXTENSIONS.tsc] } };
    }
    if (this.opts.checks?.length && !tests.timedOut) {
      const remaining = Math.max(1000, timeoutMs - (Date.now() - started));
      const outcome = await runChecks(this.opts.checks, { cwd, timeoutMs: remaining, signal, env: childEnvironment(this.opts.env ?? process.env, this.opts.withheldEnv) });
      if (signal?.aborted) throw abortError(signal);
      mergeChecks(witness, outcome, (d) => this.repeated.diagnostic(d));
    }
    return witness;
  }

  /**
   * The newly failing tests run again, narrowed by the runner's own filter where Greenloop knows one. When the
   * narrowed run does not report every one of them (a filter that matched nothing, a wrapper script that dropped
   * the flag), the whole command runs instead, so the answer is always about the tests asked for.
   */
  async rerun(ids: string[], signal?: AbortSignal): Promise<Witness> {
    const { cwd, testCommand, timeoutMs } = this.opts;
    const narrowed = process.platform === 'win32' ? null : narrowTestCommand(testCommand, cwd, this.lastRunner, ids);
    if (narrowed) {
      const started = Date.now();
      const env = narrowed.env ? { ...this.opts.env, ...narrowed.env } : this.opts.env;
      const { run, parsed } = await this.runAndRead(narrowed.command, env, timeoutMs, started, signal);
      if (!run.notFound && !run.timedOut && !run.cancelled) {
        const w = this.witness(run, parsed, [], run.output, started, false, false);
        w.scope = 'targeted';
        // Skipped is not run: a filter that matched nothing else reports the test, but as skipped.
        if (w.ran && ids.every((id) => w.ran!.includes(id) && !w.skipped.includes(id))) return w;
      }
      if (signal?.aborted) throw abortError(signal);
    }
    const started = Date.now();
    const { run, parsed } = await this.runAndRead(testCommand, this.opts.env, timeoutMs, started, signal);
    if (run.cancelled) throw abortError(signal);
    if (run.notFound) throw new VerifyError(`Test command not found: ${testCommand} (run in ${cwd}).`);
    return this.witness(run, parsed, [], run.output, started, run.timedOut, true);
  }

  /**
   * Only these tests, narrowed by file and name with the runner's own selection (runners/narrow.ts), and no checker:
   * the loop runs them first and the whole suite only when one of them passes. Whether the run covered every target
   * is the caller's to check (core/judge/targetedCoverage.ts): a selection that matched nothing must never read as passing.
   */
  async verifyTargeted(targets: readonly TestTarget[], signal?: AbortSignal, opts: TargetedOptions = {}): Promise<TargetedRun> {
    const { cwd, testCommand, timeoutMs } = this.opts;
    if (process.platform === 'win32') return { ok: false, why: 'the test command is not narrowed on Windows' };
    if (this.opts.junitGlob) return { ok: false, why: 'the results are read from JUnit reports, which a narrowed run would leave half-written' };
    // Only a runner whose narrowing names files loosely (go's base names, mocha's stacks) needs the walk.
    const needsFiles = this.lastRunner !== null && (runnerOfFormat(this.lastRunner)?.narrowNeedsFiles ?? false);
    const files = needsFiles ? workspaceFiles(cwd) ?? undefined : undefined;
    const baseEnv = this.opts.env ?? process.env;
    const coverage = opts.coverage ? new CoverageRequest({ cwd, env: baseEnv }) : null;
    const narrowed = narrowToTargets({ testCommand, runner: this.lastRunner, targets, scripts: packageScripts(cwd), files, wrapRunner: coverage?.wrapRunner });
    if (!narrowed.ok) {
      coverage?.dispose();
      return { ok: false, why: narrowed.why };
    }
    let env = narrowed.pathDirs.length
      ? { ...baseEnv, PATH: [...narrowed.pathDirs.map((d) => path.join(cwd, d)), baseEnv.PATH ?? ''].join(path.delimiter) }
      : this.opts.env;
    if (coverage?.env) env = { ...(env ?? process.env), ...coverage.env };
    try {
      const started = Date.now();
      const { run, parsed } = await this.runAndRead(narrowed.command, env, timeoutMs, started, signal, this.opts.onOutput);
      if (run.cancelled || signal?.aborted) throw abortError(signal);
      if (run.notFound) return { ok: false, why: `the narrowed command could not start (${narrowed.command})` };
      const witness = this.witness(run, parsed, [], run.output, started, run.timedOut, false);
      witness.scope = 'targeted';
      const result: TargetedRun = { ok: true, witness, command: narrowed.command, tests: narrowed.tests };
      if (coverage) result.coverage = await coverage.read(witness, targets, opts.passingBeside);
      return result;
    } finally {
      coverage?.dispose();
    }
  }

  /**
   * Runs one command and reads its whole output as it arrives (spooled past a megabyte, so a failure anywhere in a
   * huge log is found), or the JUnit reports it wrote.
   */
  private async runAndRead(
    command: string, env: NodeJS.ProcessEnv | undefined, timeoutMs: number, startedAt: number, signal?: AbortSignal,
    onOutput?: (chunk: string) => void, format?: FormatOption,
  ): Promise<{ run: RunResult; parsed: ParsedOutput }> {
    const spool = new OutputSpool();
    try {
      const run = await runCommand({
        command, cwd: this.opts.cwd, env: childEnvironment(env ?? process.env, this.opts.withheldEnv), timeoutMs, signal,
        onData: (chunk) => {
          spool.write(chunk);
          onOutput?.(chunk);
        },
      }).catch((e: unknown) => {
        throw e instanceof CommandCannotStart ? new VerifyError(e.message) : e;
      });
      const chosen = format ?? this.opts.format ?? 'auto';
      const hints = chosen === 'auto' ? runnerHints(command, packageScripts(this.opts.cwd)) : [];
      const parsed = this.opts.junitGlob && format === undefined
        ? await this.junitReports(startedAt)
        : await this.withOwnReports(await parseSpool(spool, chosen, hints, { intern: (id) => this.repeated.intern(id), cwd: this.opts.cwd, command }), startedAt);
      return { run, parsed };
    } finally {
      spool.dispose();
    }
  }

  private async junitReports(startedAt: number): Promise<ParsedOutput> {
    const fresh = await this.freshReports([this.opts.junitGlob!], startedAt);
    if (fresh.length === 0) {
      return { runner: 'junit', failing: [], tests: null, passedCount: null, failedCount: null, skippedCount: null, loadError: true, diagnostics: [] };
    }
    return parseReports('junit', fresh.map((f) => fs.readFileSync(f, 'utf8')), { cwd: this.opts.cwd });
  }

  /** Report files matching the globs that this run wrote. */
  private async freshReports(globs: readonly string[], startedAt: number): Promise<string[]> {
    // Loaded only when reports are read: the glob library is a fifth of the verifier's start, paid by every Stop hook otherwise.
    const { glob } = await import('tinyglobby');
    const files = await glob([...globs], { cwd: this.opts.cwd, absolute: true, ignore: ['**/node_modules/**'] });
    // Stale reports from an earlier run would describe old code: only files written by this run count.
    return files.filter((f) => fs.statSync(f).mtimeMs >= startedAt - 1000).sort();
  }

  /** The console of a runner that writes reports on every run (Maven's Surefire XML), read with those this run wrote. */
  private async withOwnReports(parsed: ParsedOutput, startedAt: number): Promise<ParsedOutput> {
    const own = parsed.runner ? runnerOfFormat(parsed.runner)?.ownReports : undefined;
    if (!own) return parsed;
    const fresh = await this.freshReports(own.globs, startedAt);
    return withOwnReports(parsed, fresh.length ? parseReports(own.format, fresh.map((f) => fs.readFileSync(f, 'utf8'))) : null);
  }

  /** `whole`: the whole suite ran (not a re-run narrowed to a few tests). */
  private witness(run: RunResult, parsed: ParsedOutput, diagnostics: Diagnostic[], rawOutput: string, started: number, timedOut: boolean, whole: boolean): Witness {
    const cwd = this.opts.cwd;
    const parts = this.repeated;
    const idOf = (id: string) => parts.testId(id);
    const failures = dedupeFailures(parsed.failing.map((f) => ({ ...f, id: idOf(f.id), file: f.file ? relativize(f.file, cwd) : undefined }))).map((f) => parts.failure(f));
    const ran = parsed.tests ? parts.list('ran', ranIds(parsed.tests, failures, idOf)) : null;
    const skippedIds: string[] = [];
    for (const t of parsed.tests ?? []) if (t.status === 'skipped') skippedIds.push(idOf(t.id));
    const skipped = parts.list('skipped', sortedUnique(skippedIds));
    const failing = parts.list('failing', failures.map((f) => f.id));
    const loadErrors = dedupeLoadErrors((parsed.loadErrors ?? []).map((e) => ({ ...e, file: idOf(relativize(e.file, cwd)) }))).map((e) => parts.loadError(e));
    const loadErrorFiles = parts.list('loadErrorFiles', loadErrors.map((e) => e.file));
    parts.endRun(whole);
    const executed = executedCount(parsed);
    const normalized = normalizeOutput(rawOutput, { cwd });
    // A file that did not load explains a failed run as much as a failing test does.
    const kind = classifyRun(parsed, {
      exitCode: run.exitCode, signal: run.signal, timedOut, cancelled: run.cancelled, named: failures.length + loadErrors.length, executed, output: normalized,
    });
    const { loadError, commandFailure } = kind;
    const unreadable = kind.unreadable !== null;
    const noTests = kind.noTests !== null;
    const warnings = [kind.unreadable, kind.noTests, sharedIdsWarning(parsed, idOf)].filter((w): w is string => w !== null);
    const ranCount = countRan(parsed);
    return {
      green: run.exitCode === 0 && !timedOut && !run.cancelled && failures.length === 0 && !loadError && !noTests && !unreadable && diagnostics.length === 0,
      failing,
      failures,
      diagnostics,
      loadError,
      loadErrorFiles,
      loadErrors,
      exitCode: run.exitCode,
      signal: run.signal,
      timedOut,
      durationMs: Date.now() - started,
      testDurationMs: run.durationMs,
      signature: signatureOf(normalized),
      passedCount: parsed.passedCount,
      failedCount: parsed.failedCount,
      skippedCount: parsed.skippedCount,
      ran,
      skipped,
      ranCount,
      warnings,
      unreadable,
      stoppedEarly: parsed.stoppedEarly ?? null,
      commandFailure,
      // Shown to the person and the model as the runner printed it; only the signature compares normalized text. Its
      // own copy: cut from the output's last megabyte, it would keep that megabyte for as long as the witness lives.
      outputExcerpt: ownCopy(readableOutput(excerpt(rawOutput))),
      runner: parsed.runner,
    };
  }
}

/**
 * The checkers' findings join the witness: their errors are diagnostics (never green while any is left), what they
 * checked is recorded, and a checker that could not say (not installed, crashed, unrecognised) makes the witness
 * unreadable — never green, and never read as clean — with its sentence as a warning.
 */
function mergeChecks(w: Witness, outcome: ChecksOutcome, tidy: (d: Diagnostic) => Diagnostic): void {
  w.diagnostics = [...w.diagnostics, ...outcome.diagnostics.map(tidy)];
  if (Object.keys(outcome.checked).length) w.checked = { ...w.checked, ...outcome.checked };
  if (Object.keys(outcome.checkedCounts).length) w.checkedCounts = { ...w.checkedCounts, ...outcome.checkedCounts };
  if (Object.keys(outcome.checkers).length) w.checkers = { ...w.checkers, ...outcome.checkers };
  if (outcome.failures.length) {
    w.unreadable = true;
    w.checkFailures = outcome.failures;
    w.warnings = [...w.warnings, ...outcome.failures];
  }
  w.green = w.green && w.diagnostics.length === 0 && outcome.failures.length === 0;
  if (outcome.excerpt) w.signature = signatureOf(`${w.signature}\n${outcome.excerpt}`);
  if (outcome.excerpt) w.outputExcerpt = ownCopy(readableOutput(excerpt(`${w.outputExcerpt}\n${outcome.excerpt}`)));
}

/**
 * Test IDs as the loop compares them: the workspace prefix some runners put in front (node --test names a test
 * after its file's absolute path) removed, then the output's normalization (temp paths, durations, ports, pids).
 */
export function testIdNormalizer(cwd: string): (id: string) => string {
  const parts = new RepeatedParts(cwd);
  return (id) => parts.testId(id);
}

/** passed + failed + skipped as the runner counted them; null when it printed no counts. */
function countRan(parsed: ParsedOutput): number | null {
  // go without -v counts only failures: a count without the passes says nothing about how many ran.
  if (parsed.passedCount === null) return parsed.tests ? parsed.tests.length : null;
  return (parsed.passedCount ?? 0) + (parsed.failedCount ?? 0) + (parsed.skippedCount ?? 0);
}

/** Tests that really executed (passed or failed); null when the runner's counts do not say. */
export function executedCount(parsed: Pick<ParsedOutput, 'passedCount' | 'failedCount' | 'tests'>): number | null {
  if (parsed.passedCount !== null) return parsed.passedCount + (parsed.failedCount ?? 0);
  if (!parsed.tests) return null;
  let n = 0;
  for (const t of parsed.tests) if (t.status !== 'skipped') n++;
  return n;
}

/** Every test that ran, failures included, as compared: one array of exactly their number (it may be kept for the run). */
function ranIds(tests: readonly ReportedTest[], failures: readonly FailingTest[], idOf: (id: string) => string): string[] {
  const ids = new Array<string>(tests.length + failures.length);
  for (let i = 0; i < tests.length; i++) ids[i] = idOf(tests[i].id);
  for (let i = 0; i < failures.length; i++) ids[tests.length + i] = failures[i].id;
  return sortedUnique(ids);
}

/** The IDs sorted, each once: sorted and deduplicated in place (no set of a million IDs). */
function sortedUnique(ids: string[]): string[] {
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let kept = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[kept - 1]) ids[kept++] = ids[i];
  ids.length = kept;
  return ids;
}

function dedupeLoadErrors(list: LoadErrorFile[]): LoadErrorFile[] {
  const byFile = new Map<string, LoadErrorFile>();
  for (const e of list) if (!byFile.has(e.file)) byFile.set(e.file, e);
  return [...byFile.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function dedupeFailures(list: FailingTest[]): FailingTest[] {
  const byId = new Map<string, FailingTest>();
  for (const f of list) if (!byId.has(f.id)) byId.set(f.id, f);
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function relativize(file: string, cwd: string): string {
  if (!path.isAbsolute(file)) return file.split(path.sep).join('/');
  const rel = path.relative(cwd, file);
  return rel.startsWith('..') ? file : rel.split(path.sep).join('/');
}

/** Head and tail of the output: the summary is usually at the end, the first error at the start. */
function excerpt(text: string): string {
  if (text.length <= EXCERPT_CHARS) return text.trim();
  const head = text.slice(0, EXCERPT_CHARS / 3);
  const tail = text.slice(-(EXCERPT_CHARS * 2) / 3);
  return `${head.trimEnd()}\n…\n${tail.trimStart()}`.trim();
}

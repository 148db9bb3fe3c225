// `greenloop fix`: runs the bounded loop headless, progress on stderr, report JSON on stdout/file.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';
import { LoopEngine } from '../core/loop/engine';
import { systemClock } from '../base/systemClock';
import { spentWithoutGrant } from '../core/loop/bounds/budget';
import type { Grant } from '../core/loop/bounds/budget';
import { DEFAULT_AGENT_SETTINGS, DEFAULT_LOOP_CONFIG, TYPE_CHECK_PROTECTED_GLOBS } from '../shared/config';
import type { LoopConfig } from '../shared/config';
import { JsonlHistoryStore } from '../store/historyStore';
import { toHistoryRecord } from '../core/run/historyRecord';
import { RunStore } from '../store/runStore';
import { setupFailureReport, STOPPED_BEFORE_BASELINE, toReport } from '../core/run/report';
import type { RunState } from '../ports/runState';
import { openWorkspace } from '../session/openWorkspace';
import { openOutsideWatch } from '../outside/outsideWatch';
import { defaultStateDir, ensureUsableStateDir } from '../base/stateDir';
import { newRunId } from '../base/runId';
import { buildVerifier, VERIFIER_FLAGS } from '../flags/verifierFlags';
import { actorFromFlags, modelKeyFromFlags } from '../flags/fixFlags';
import { loopConfigFromFlags } from '../flags/loopConfigFlags';
import { runSecrets } from '../base/secretEnv';
import { progressLine } from '../session/progressLine';
import { EXIT, parseNumberFlag, UsageError } from '../flags/usageError';
import { say as sayEscaped } from './say';
import { jsonText } from '../base/terminalText';
import type { FixReport, SetupFailureReport } from '../core/run/report';
import type { Redactor } from '../base/redact';
import { finishGithub, githubProgress, githubReportPath, isGithubFormat, maskForGithub } from './githubWriters';

const FLAGS = {
  ...VERIFIER_FLAGS,
  actor: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key-env': { type: 'string' },
  'no-stream': { type: 'boolean' },
  'actor-cmd': { type: 'string' },
  agent: { type: 'string' },
  'agent-upstream': { type: 'string' },
  'agent-requests-per-attempt': { type: 'string' },
  'agent-timeout-s': { type: 'string' },
  'max-iterations': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-minutes': { type: 'string' },
  patience: { type: 'string' },
  'verify-timeout-s': { type: 'string' },
  'on-give-up': { type: 'string' },
  'allow-test-edits': { type: 'boolean' },
  protect: { type: 'string', multiple: true },
  'state-dir': { type: 'string' },
  report: { type: 'string' },
  json: { type: 'boolean' },
  resume: { type: 'string' },
  hint: { type: 'string' },
  'extra-iterations': { type: 'string' },
  'extra-tokens': { type: 'string' },
  'extra-minutes': { type: 'string' },
  'ignore-history': { type: 'boolean' },
  'flaky-reruns': { type: 'string' },
  'cross-run-limit': { type: 'string' },
  'request-timeout-s': { type: 'string' },
  'max-answer-bytes': { type: 'string' },
  focus: { type: 'string', multiple: true },
  format: { type: 'string' },
} as const;

type FixFlags = ReturnType<typeof parseFlags>;

function parseFlags(argv: string[]) {
  return parseArgs({ args: argv, options: FLAGS, strict: true }).values;
}

export async function fixCommand(argv: string[]): Promise<number> {
  const values = parseFlags(argv);
  // In a GitHub Actions job the report is always a file: the action and actions/upload-artifact pick it up.
  if (isGithubFormat(values)) values.report = githubReportPath(values);
  try {
    return await runFix(values);
  } catch (err) {
    // A run that could not start, or that failed in a way nothing planned for, still answers a --json or --report
    // caller: a script waiting for the report must never find stdout empty. The sentence is the one stderr gets.
    const { redactor } = runSecrets({ env: process.env, keyVariable: values['api-key-env'] });
    const sentence = redactor.text((err as Error).message.split('\n')[0]);
    try {
      await writeReport(values, setupFailureReport(err instanceof UsageError ? sentence : `Internal error: ${sentence}`), { redactor, cwd: path.resolve(values.cwd ?? '.') });
    } catch {
      // An unwritable --report path: the line on stderr still says why the run did not start.
    }
    throw err;
  }
}

async function runFix(values: FixFlags): Promise<number> {
  const model = modelKeyFromFlags(values);
  // Once per run: what the test command and the agent do not inherit, and what nothing written or sent may contain.
  const { redactor, withheld } = runSecrets({ env: process.env, apiKey: model.key, keyVariable: model.variable });
  const say = (line: string) => sayEscaped(redactor.text(line));
  const github = isGithubFormat(values) ? githubProgress(say) : null;
  if (github) maskForGithub([model.key]);
  const flagConfig = loopConfigFromFlags(values);
  const { cwd, verifier, testCommand } = buildVerifier(values, flagConfig.verifyTimeoutS, withheld);
  // With the type check part of "green", loosening tsconfig is as much a way to cheat as weakening a test.
  const config = verifier.typeChecks ? { ...flagConfig, protectedGlobs: [...flagConfig.protectedGlobs, ...TYPE_CHECK_PROTECTED_GLOBS] } : flagConfig;
  const actorWarnings: string[] = [];
  const actor = actorFromFlags(values, cwd, model, withheld, actorWarnings);
  // An agent resends its whole conversation with every request: a model's token budget would not last one attempt.
  if (actor.editsWorkspace && values['max-tokens'] === undefined) config.maxTokens = DEFAULT_AGENT_SETTINGS.maxTokens;
  actorWarnings.forEach((w) => say(`greenloop: warning: ${w}`));
  const stateDir = values['state-dir'] ?? defaultStateDir();
  await ensureUsableStateDir(stateDir).catch((err: Error) => {
    throw new UsageError(`${err.message}; pass --state-dir with a folder you can write.`);
  });
  const runs = new RunStore(stateDir, cwd, redactor);
  const history = JsonlHistoryStore.forWorkspace(stateDir, cwd, redactor);

  let resumeFrom: RunState | undefined;
  if (values.resume && values.focus?.length) throw new UsageError('--focus is not used with --resume: a resumed run keeps the focus it started with.');
  if (values.resume) {
    if (!values.hint) throw new UsageError('--resume needs --hint "<what the model should know>" so the extra attempts differ from the last ones.');
    try {
      resumeFrom = await runs.load(values.resume);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  } else if (values.hint) {
    throw new UsageError('--hint is only used with --resume RUN_ID|last.');
  }
  const grant = resumeFrom ? grantFromFlags(values, resumeFrom) : undefined;

  const past = await history.list();
  past.warnings.forEach((w) => say(`greenloop: warning: ${w}`));
  const runId = resumeFrom?.runId ?? newRunId();
  const { snapshots, journal, recovered } = await openWorkspace({ workspace: cwd, stateDir, excludes: config.snapshotExcludes, runId, onWarning: (m: string) => say(`greenloop: warning: ${m}`) })
    .catch((err: Error) => {
      // No git, a folder that is gone, a store that cannot be created, another run on this folder: setup, in one sentence.
      throw new UsageError(err.message.split('\n')[0]);
    });
  if (recovered) say(`greenloop: ${recovered.sentence}`);
  if (resumeFrom && !(await snapshots.hasAll(savedSnapshots(resumeFrom)))) {
    await journal.release();
    throw new UsageError(`The snapshots of run ${resumeFrom.runId} are no longer in the store (moved aside or deleted), so it cannot be resumed; start a new run instead.`);
  }
  // Opened before the first test run, so the ignored files the tests themselves write are known as theirs.
  const outside = actor.editsWorkspace
    ? await openOutsideWatch({ workspace: cwd, stateDir, home: os.homedir(), snapshots }).catch(async (err: Error) => {
      await journal.release();
      throw err;
    })
    : undefined;
  const engine = new LoopEngine({
    cwd, actor, verifier, snapshots, journal, outside, clock: systemClock, config: resumeFrom ? upgradeConfig(resumeFrom.config) : config, redactor, runId, pastRuns: past.records,
    ignoreHistory: Boolean(values['ignore-history']),
  });
  engine.events.on((e) => {
    const line = progressLine(e);
    if (line) (github ? github(e, line) : say(line));
  });
  const controller = new AbortController();
  const onSigint = () => {
    say('greenloop: cancelling — restoring the workspace…');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);

  say(`greenloop: verifying ${cwd} with \`${testCommand}\`; model: ${actor.label}`);
  let state: RunState;
  try {
    if (resumeFrom && grant) {
      say(`greenloop: resuming run ${resumeFrom.runId} with an extra budget of ${grant.iterations} attempts${grant.tokens ? `, ${grant.tokens} tokens` : ''}${grant.minutes ? `, ${grant.minutes} min` : ''}`);
      state = await engine.resume(resumeFrom, grant, controller.signal);
    } else {
      state = await engine.run(controller.signal);
    }
  } catch (err) {
    // A workspace the snapshots cannot record at all is a setup problem: one sentence, nothing changed.
    if ((err as Error).name === 'UnrecordablePathError') throw new UsageError((err as Error).message);
    // The state folder deleted before the loop wrote anything (during the first test run): setup, nothing changed.
    // A focus that names no failing test is a typo on the command line, found by the first test run.
    if ((err as Error).name === 'FocusNotFailingError') throw new UsageError((err as Error).message);
    if ((err as Error).name === 'StateDirLost') throw new UsageError(`${(err as Error).message}; nothing was changed.`);
    if (controller.signal.aborted) {
      say(`greenloop: ${STOPPED_BEFORE_BASELINE}`);
      await writeReport(values, setupFailureReport(STOPPED_BEFORE_BASELINE, 'cancelled'), { redactor, cwd });
      return EXIT.notGreen;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await actor.dispose?.();
    await journal.release();
  }

  if (state.reason === 'stagnation' && state.iterations.length === 0 && state.crossRun) {
    say('greenloop: pass --ignore-history to run anyway.');
  }
  await runs.save(state);
  await history.append(toHistoryRecord(state));
  await writeReport(values, toReport(state, redactor), { redactor, cwd, state });
  if (state.outcome === 'error') return EXIT.internal;
  return state.outcome === 'green' ? EXIT.green : EXIT.notGreen;
}

async function writeReport(values: FixFlags, report: FixReport | SetupFailureReport, run: { redactor: Redactor; cwd: string; state?: RunState }): Promise<void> {
  const json = jsonText(report);
  const github = isGithubFormat(values) && values.report;
  if (github) fs.mkdirSync(path.dirname(github), { recursive: true });
  if (values.report) fs.writeFileSync(values.report, `${json}\n`);
  if (values.json) process.stdout.write(`${json}\n`);
  if (github) await finishGithub({ report, state: run.state, reportPath: github, ...run });
}

/** The snapshots a resume returns to or compares with: all must still be in the store. */
function savedSnapshots(state: RunState): string[] {
  return [...new Set([state.baseline.snapshot, (state.floor ?? state.baseline).snapshot, state.best.snapshot, state.current.snapshot])];
}

/** The explicit extra budget of a resume: each amount counts from where the run stopped. */
function grantFromFlags(values: { hint?: string; 'extra-iterations'?: string; 'extra-tokens'?: string; 'extra-minutes'?: string }, state: RunState): Grant {
  const grant: Grant = {
    hint: values.hint ?? '',
    iterations: parseNumberFlag('extra-iterations', values['extra-iterations'], { min: 1, integer: true }) ?? 3,
    tokens: parseNumberFlag('extra-tokens', values['extra-tokens'], { min: 0, integer: true }) ?? 0,
    minutes: parseNumberFlag('extra-minutes', values['extra-minutes'], { min: 0 }) ?? 0,
  };
  const spent = spentWithoutGrant(state, grant, Date.now());
  if (spent) throw new UsageError(`Run ${state.runId} cannot go on: ${spent} (${spent.includes('tokens') ? '--extra-tokens N' : spent.includes('minutes') ? '--extra-minutes M' : '--extra-iterations N'}).`);
  return grant;
}

/** A run saved by an earlier version lacks the newer settings: they take their defaults. */
function upgradeConfig(config: LoopConfig): LoopConfig {
  return { ...DEFAULT_LOOP_CONFIG, ...config };
}

// `greenloop fix`: runs the bounded loop headless, progress on stderr, report JSON on stdout/file.
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
import { spentWithoutGrant } from '../core/loop/bounds/budget';
import type { Grant } from '../core/loop/engine';
import { RunStore } from '../store/runStore';
import { setupFailureReport, STOPPED_BEFORE_BASELINE, toReport } from '../core/run/report';
import type { FixReport, SetupFailureReport } from '../core/run/report';
import type { RunState } from '../ports/runState';
import { openFixRun, type FixResult, type FixRun } from '../session/runFix';
import { RunNotStarted } from '../session/runNotStarted';
import { progressLine } from '../session/progressLine';
import { ensureUsableStateDir } from '../base/stateDir';
import { runSecrets } from '../base/secretEnv';
import { jsonText } from '../base/terminalText';
import type { Redactor } from '../base/redact';
import { VERIFIER_FLAGS } from '../flags/verifierFlags';
import { fixRequestFromFlags } from '../flags/fixRequest';
import { EXIT, parseNumberFlag, UsageError } from '../flags/usageError';
import { answerFlagsOf, notStartedSentence } from '../flags/answerFlags';
import { say as sayEscaped } from './say';
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
  'verify-scope': { type: 'string' },
  'cross-run-limit': { type: 'string' },
  'request-timeout-s': { type: 'string' },
  'max-answer-bytes': { type: 'string' },
  'context-tokens': { type: 'string' },
  focus: { type: 'string', multiple: true },
  format: { type: 'string' },
} as const;

type FixFlags = ReturnType<typeof parseFlags>;

function parseFlags(argv: string[]) {
  return parseArgs({ args: argv, options: FLAGS, strict: true }).values;
}

export async function fixCommand(argv: string[]): Promise<number> {
  // Until the flags parse, what the answer needs is read leniently: a bad flag still gets its --json/--report answer.
  let values: FixFlags = answerFlagsOf(argv, FLAGS);
  try {
    values = parseFlags(argv);
    // In a GitHub Actions job the report is always a file: the action and actions/upload-artifact pick it up.
    if (isGithubFormat(values)) values.report = githubReportPath(values);
    return await runFix(values);
  } catch (err) {
    // A run that could not start, or that failed in a way nothing planned for, still answers a --json or --report
    // caller: a script waiting for the report must never find stdout empty. The sentence is the one stderr gets.
    const { redactor } = runSecrets({ env: process.env, keyVariable: values['api-key-env'] });
    if (answered) throw err;
    try {
      await writeReport(answerable(values), setupFailureReport(notStartedSentence(err, redactor)), { redactor, cwd: path.resolve(values.cwd ?? '.') });
    } catch {
      // An unwritable --report path: the line on stderr still says why the run did not start.
    }
    throw err;
  }
}

/** The flags a failure answers with: a --format that is itself the mistake answers as text; GitHub's always in a file. */
function answerable(values: FixFlags): FixFlags {
  let github: boolean;
  try {
    github = isGithubFormat(values);
  } catch {
    return { ...values, format: 'text' };
  }
  return github ? { ...values, format: 'github', report: githubReportPath(values) } : values;
}

async function runFix(values: FixFlags): Promise<number> {
  const { request, testCommand, model, actorWarnings } = fixRequestFromFlags(values);
  const { redactor, cwd, actor } = request;
  const say = (line: string) => sayEscaped(redactor.text(line));
  const warn = (m: string) => say(`greenloop: warning: ${m}`);
  const github = isGithubFormat(values) ? githubProgress(say) : null;
  if (github) maskForGithub([model.key]);
  actorWarnings.forEach(warn);

  let fixRun: FixRun;
  let resume: { from: RunState; grant: Grant } | undefined;
  try {
    resume = await resumeFromFlags(values, request.stateDir, cwd, redactor);
    fixRun = await openFixRun({
      ...request, resume, ignoreHistory: Boolean(values['ignore-history']),
      onWarning: warn,
      onRecovered: (sentence) => say(`greenloop: ${sentence}`),
      onEvent: (e) => {
        const line = progressLine(e);
        if (line) (github ? github(e, line) : say(line));
      },
    });
  } catch (err) {
    // Nothing started: the actor is closed by the session, or was never handed over (a bad --resume).
    if (!(err instanceof RunNotStarted)) await actor.dispose?.().catch(() => undefined);
    throw err instanceof RunNotStarted ? notStartedUsage(err) : err;
  }

  const controller = new AbortController();
  const onSigint = () => {
    say('greenloop: cancelling — restoring the workspace…');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  say(`greenloop: verifying ${cwd} with \`${testCommand}\`; model: ${actor.label}`);
  if (resume) {
    const { grant } = resume;
    say(`greenloop: resuming run ${resume.from.runId} with an extra budget of ${grant.iterations} attempts${grant.tokens ? `, ${grant.tokens} tokens` : ''}${grant.minutes ? `, ${grant.minutes} min` : ''}`);
  }
  let result: FixResult;
  try {
    result = await fixRun.run(controller.signal);
  } catch (err) {
    if (err instanceof RunNotStarted && err.why === 'cancelled') {
      say(`greenloop: ${STOPPED_BEFORE_BASELINE}`);
      await writeReport(values, setupFailureReport(STOPPED_BEFORE_BASELINE, 'cancelled'), { redactor, cwd });
      return EXIT.notGreen;
    }
    throw err instanceof RunNotStarted ? notStartedUsage(err) : err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }

  const { state, saveError } = result;
  if (state.reason === 'stagnation' && state.iterations.length === 0 && state.crossRun) {
    say('greenloop: pass --ignore-history to run anyway.');
  }
  if (saveError) throw saveError;
  await writeReport(values, toReport(state, redactor), { redactor, cwd, state });
  if (state.outcome === 'error') return EXIT.internal;
  return state.outcome === 'green' ? EXIT.green : EXIT.notGreen;
}

/** A run that could not start, in the sentence `greenloop fix` has always given for it: a setup problem (exit 2). */
function notStartedUsage(err: RunNotStarted): UsageError {
  switch (err.why) {
    case 'state-dir': return new UsageError(`${err.message}; pass --state-dir with a folder you can write.`);
    case 'workspace': return new UsageError(err.message.split('\n')[0]);
    case 'state-dir-lost': return new UsageError(`${err.message}; nothing was changed.`);
    default: return new UsageError(err.message);
  }
}

/** The saved run and its extra budget for --resume, each bad flag in its own sentence; undefined for a new run. */
async function resumeFromFlags(values: FixFlags, stateDir: string, cwd: string, redactor: Redactor): Promise<{ from: RunState; grant: Grant } | undefined> {
  if (values.resume && values.focus?.length) throw new UsageError('--focus is not used with --resume: a resumed run keeps the focus it started with.');
  if (!values.resume) {
    if (values.hint) throw new UsageError('--hint is only used with --resume RUN_ID|last.');
    return undefined;
  }
  if (!values.hint) throw new UsageError('--resume needs --hint "<what the model should know>" so the extra attempts differ from the last ones.');
  // The state folder is checked before the saved run is read: an unusable one gets its own sentence.
  await ensureUsableStateDir(stateDir).catch((err: Error) => {
    throw notStartedUsage(new RunNotStarted(err.message, 'state-dir', { cause: err }));
  });
  let from: RunState;
  try {
    from = await new RunStore(stateDir, cwd, redactor).load(values.resume);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return { from, grant: grantFromFlags(values, from) };
}

/** Set once a report went out: a later failure must not answer a second time. */
let answered = false;

async function writeReport(values: FixFlags, report: FixReport | SetupFailureReport, run: { redactor: Redactor; cwd: string; state?: RunState }): Promise<void> {
  const json = jsonText(report);
  answered = true;
  // stdout first: a --report path that cannot be written still leaves the --json caller its report.
  if (values.json) process.stdout.write(`${json}\n`);
  const github = isGithubFormat(values) && values.report;
  if (github) fs.mkdirSync(path.dirname(github), { recursive: true });
  if (values.report) fs.writeFileSync(values.report, `${json}\n`);
  if (github) await finishGithub({ report, state: run.state, reportPath: github, ...run });
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

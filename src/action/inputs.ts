// The action's inputs as `greenloop fix` flags. Inputs are named like the flags, so a bad value gets the CLI's own
// sentence; what only the action knows (the job's timeout, the pull request, where files go) is checked here.
import * as os from 'os';
import * as path from 'path';
import { DEFAULT_LOOP_CONFIG } from '../session/loopDefaults';

/** A bad input: one sentence a person reads in the step's log. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** Minutes kept between the loop's deadline and the job's timeout: the summary, the patch and the pull request. */
export const JOB_MARGIN_MINUTES = 2;
/** GitHub's own default `timeout-minutes` for a job. */
export const GITHUB_JOB_TIMEOUT_MINUTES = 360;

export interface ActionPlan {
  /** The repository root the checkout is in (GITHUB_WORKSPACE). */
  workspace: string;
  /** The working directory the loop fixes. */
  cwd: string;
  /** `greenloop fix` flags, without the command name. */
  args: string[];
  reportPath: string;
  /** The loop's deadline, after the job's margin. */
  maxMinutes: number;
  /** Values to mask in every log line before anything is printed. */
  secrets: string[];
  pullRequest: { open: boolean; token: string; branch: string };
  /** Platform credentials the run may hand on anyway (`pass-env`, one name per line; passed as --pass-env). */
  passEnv: string[];
  notes: string[];
}

type Input = (name: string) => string;

/** Flags passed through as they are, input name = flag name. */
const VALUE_FLAGS = ['test-command:test-cmd', 'tsc', 'junit', 'base-url', 'model', 'agent', 'agent-upstream', 'max-iterations', 'max-tokens', 'patience',
  'verify-timeout-s', 'verify-scope', 'autofix', 'context-tokens', 'candidates', 'on-give-up', 'flaky-reruns', 'cross-run-limit', 'state-dir'];
const LIST_FLAGS = ['checks:check', 'protect', 'pass-env'];

export function planFromInputs(input: Input, env: NodeJS.ProcessEnv): ActionPlan {
  const get = (name: string) => input(name).trim();
  const workspace = path.resolve(env.GITHUB_WORKSPACE || process.cwd());
  const cwd = path.resolve(workspace, get('working-directory') || '.');
  const args = ['--cwd', cwd];
  const notes: string[] = [];
  for (const spec of VALUE_FLAGS) {
    const [name, flag = name] = spec.split(':');
    const value = get(name);
    if (value) args.push(`--${flag}`, value);
  }
  for (const spec of LIST_FLAGS) {
    const [name, flag = name] = spec.split(':');
    for (const line of lines(input(name))) args.push(`--${flag}`, line);
  }
  const agentCommand = get('agent-command');
  if (agentCommand) args.push('--actor', 'command', '--actor-cmd', agentCommand);
  if (booleanInput(input, 'allow-test-edits')) args.push('--allow-test-edits');
  if (booleanInput(input, 'ignore-history')) args.push('--ignore-history');
  if (booleanInput(input, 'candidates-parallel')) args.push('--candidates-parallel');

  const secrets: string[] = [];
  const keyName = get('api-key-env');
  if (keyName) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyName)) {
      // Most likely the key itself was pasted: mask it, and never repeat it.
      secrets.push(keyName);
      throw new InputError('api-key-env takes the NAME of the environment variable that holds the key (e.g. OPENAI_API_KEY, set from a secret in the step\'s env:), not the key itself.');
    }
    if (!env[keyName]) throw new InputError(`api-key-env names ${keyName}, but no such variable is set for this step; add \`env: ${keyName}: \${{ secrets.${keyName} }}\` to it.`);
    secrets.push(env[keyName]!);
    args.push('--api-key-env', keyName);
  }

  const maxMinutes = deadline(get('timeout-minutes'), get('max-minutes'), notes);
  args.push('--max-minutes', String(maxMinutes));

  const reportPath = path.resolve(workspace, get('report-path') || defaultReportPath(env, workspace, cwd));
  const token = get('github-token');
  if (token) secrets.push(token);
  const open = booleanInput(input, 'open-pull-request');
  const branch = get('pull-request-branch') || defaultBranch(env, workspace, cwd);
  return { workspace, cwd, args, reportPath, maxMinutes, secrets, pullRequest: { open, token, branch }, passEnv: lines(input('pass-env')), notes };
}

/** The loop's time budget: max-minutes (default the CLI's), never past the job's timeout less the margin. */
function deadline(timeoutRaw: string, maxRaw: string, notes: string[]): number {
  const timeout = timeoutRaw ? Number(timeoutRaw) : GITHUB_JOB_TIMEOUT_MINUTES;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new InputError(`timeout-minutes must be a number of minutes above 0 (got "${timeoutRaw}").`);
  const bound = timeout - JOB_MARGIN_MINUTES;
  if (bound <= 0) throw new InputError(`timeout-minutes ${timeout} leaves no time for the loop: it stops ${JOB_MARGIN_MINUTES} minutes before the job's timeout, so give the job more than ${JOB_MARGIN_MINUTES}.`);
  const wanted = maxRaw ? Number(maxRaw) : DEFAULT_LOOP_CONFIG.maxMinutes;
  if (!Number.isFinite(wanted) || wanted <= 0) throw new InputError(`max-minutes must be a number of minutes above 0 (got "${maxRaw}").`);
  if (maxRaw && wanted > bound) notes.push(`max-minutes ${wanted} would outlast the job's timeout-minutes ${timeout}; the loop stops after ${bound} minutes so the summary and the patch are still written.`);
  return Math.min(wanted, bound);
}

/** Like @actions/core's getBooleanInput (YAML 1.2 core schema), with the input named in the sentence. */
export function booleanInput(input: Input, name: string): boolean {
  const raw = input(name).trim();
  if (!raw) return false;
  if (['true', 'True', 'TRUE'].includes(raw)) return true;
  if (['false', 'False', 'FALSE'].includes(raw)) return false;
  throw new InputError(`${name} must be true or false (got "${raw}").`);
}

const lines = (text: string): string[] => text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);

/** A name per job and folder, so two steps or two matrix jobs never share files or a branch. */
function slug(workspace: string, cwd: string): string {
  const rel = path.relative(workspace, cwd).split(path.sep).join('-');
  return rel.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 60);
}

function defaultReportPath(env: NodeJS.ProcessEnv, workspace: string, cwd: string): string {
  const s = slug(workspace, cwd);
  return path.join(env.RUNNER_TEMP || os.tmpdir(), s ? `greenloop-${s}` : 'greenloop', 'report.json');
}

function defaultBranch(env: NodeJS.ProcessEnv, workspace: string, cwd: string): string {
  const s = slug(workspace, cwd);
  const run = [env.GITHUB_RUN_ID || String(Date.now()), env.GITHUB_RUN_ATTEMPT && env.GITHUB_RUN_ATTEMPT !== '1' ? env.GITHUB_RUN_ATTEMPT : ''].filter(Boolean).join('-');
  return `greenloop/fix-${run}${s ? `-${s}` : ''}`;
}

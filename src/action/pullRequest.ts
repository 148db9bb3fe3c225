// Proposing a green run's fix: a new branch with one commit holding exactly the patch, and a pull request whose body
// is the job summary — or, for a pull request from a fork (whose branch this token cannot reach), a comment on it.
// It never pushes to the branch the run was triggered on, never force-pushes, never moves a branch that exists.
// Every way it can end without a pull request is one sentence, and none of them fails the step.
import { Octokit } from '@octokit/core';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isFullReport } from './runFacts';
import type { AnyReport } from './runFacts';

export interface ProposeOptions {
  report: AnyReport;
  /** The binary patch from the checked-out commit ('' when none was made). */
  patchPath: string;
  /** The pull request's (or comment's) body: the job summary. */
  body: string;
  token: string;
  branch: string;
  /** Any folder of the checkout: the commit is made there and pushed to its `origin`. */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface Proposal {
  /** The pull request (or comment) opened, when one was. */
  url: string | null;
  sentence: string;
}

/** GitHub refuses a pull request body over 65,536 characters. */
export const BODY_LIMIT = 65_000;

const BOT = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

export async function proposeFix(o: ProposeOptions): Promise<Proposal> {
  const nothing = (why: string): Proposal => ({ url: null, sentence: `No pull request was opened: ${why}` });
  if (o.report.outcome !== 'green') return nothing(`the run ended ${o.report.outcome}${o.report.reason ? ` (${o.report.reason})` : ''}, not green.`);
  if (!isFullReport(o.report) || !o.report.iterations.length) return nothing('the tests were already green, so there is nothing to fix.');
  if (!o.patchPath || !fs.existsSync(o.patchPath) || fs.statSync(o.patchPath).size === 0) return nothing('the run left no change to propose.');
  if (!o.token) return nothing('no token; set the github-token input (the job\'s GITHUB_TOKEN by default) with contents and pull-requests write permission.');
  const [owner, repo] = (o.env.GITHUB_REPOSITORY ?? '').split('/');
  if (!owner || !repo) return nothing('GITHUB_REPOSITORY is not set, so the repository to propose to is unknown.');
  const trigger = triggerOf(o.env);
  if (!trigger.branch) return nothing('the branch this run tested is unknown (no pull request, push or workflow_run branch in the event).');
  if (o.branch === trigger.branch) return nothing(`pull-request-branch is ${o.branch}, the branch this run was triggered on, and Greenloop never pushes to it.`);

  const octokit = new Octokit({ auth: o.token, baseUrl: o.env.GITHUB_API_URL || 'https://api.github.com', userAgent: 'greenloop-action' });
  const api = async <T>(route: string, params: Record<string, unknown>): Promise<{ data: T } | { refused: string }> => {
    try {
      return { data: (await octokit.request(route, { owner, repo, ...params })).data as T };
    } catch (err) {
      return { refused: refusal(err) };
    }
  };

  if (trigger.fork) {
    const comment = await api<{ html_url: string }>('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: trigger.pullRequest, body: fit(o.body) });
    if ('refused' in comment) return nothing(`GitHub refused the comment on pull request #${trigger.pullRequest} (${comment.refused}).`);
    return { url: comment.data.html_url, sentence: `Pull request #${trigger.pullRequest} comes from a fork this token cannot push to, so the fix was posted on it as a comment: ${comment.data.html_url}` };
  }

  const existing = await api('GET /repos/{owner}/{repo}/branches/{branch}', { branch: o.branch });
  if ('data' in existing) return nothing(`the branch ${o.branch} already exists, and Greenloop never moves a branch it did not create.`);
  if (!/^404\b/.test(existing.refused)) return nothing(`GitHub refused to say whether the branch ${o.branch} exists (${existing.refused}).`);

  let commit: string;
  try {
    commit = await commitPatch(o.cwd, o.patchPath, `Greenloop: make the failing tests pass\n\n${o.report.iterations.length} attempt(s), verified by the test command.`);
    if (await remoteHasBranch(o.cwd, o.branch, o.env, o.token)) return nothing(`the branch ${o.branch} already exists on origin, and Greenloop never moves a branch it did not create.`);
    // A plain push of a new name: no "+", no --force; git itself refuses to move a branch that appeared meanwhile.
    await git(o.cwd, ['push', '--no-verify', 'origin', `${commit}:refs/heads/${o.branch}`], pushEnv(o.env, o.token));
  } catch (err) {
    return nothing(`the branch ${o.branch} could not be pushed (${(err as Error).message}).`);
  }

  const pull = await api<{ html_url: string; number: number }>('POST /repos/{owner}/{repo}/pulls', {
    title: `Greenloop: make the failing tests pass on ${trigger.branch}`, head: o.branch, base: trigger.branch, body: fit(o.body), maintainer_can_modify: true,
  });
  if ('refused' in pull) return nothing(`the fix is on the branch ${o.branch}, but GitHub refused to open the pull request (${pull.refused}).`);
  if (trigger.pullRequest) {
    const note = await api('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: trigger.pullRequest, body: `Greenloop made the failing tests pass: #${pull.data.number}` });
    if ('refused' in note) return { url: pull.data.html_url, sentence: `Opened ${pull.data.html_url}; the note on pull request #${trigger.pullRequest} was refused (${note.refused}).` };
  }
  return { url: pull.data.html_url, sentence: `Opened ${pull.data.html_url} from the branch ${o.branch} into ${trigger.branch}.` };
}

interface Trigger {
  /** The branch the tests ran on: the pull request's head, the pushed branch, the workflow_run's head. */
  branch: string | null;
  pullRequest: number | null;
  /** The pull request's head lives in another repository. */
  fork: boolean;
}

export function triggerOf(env: NodeJS.ProcessEnv): Trigger {
  let event: any = {};
  try {
    if (env.GITHUB_EVENT_PATH) event = JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  } catch {
    event = {};
  }
  const pr = event.pull_request ?? event.workflow_run?.pull_requests?.[0];
  const run = event.workflow_run;
  const headRepo: string | undefined = event.pull_request?.head?.repo?.full_name ?? run?.head_repository?.full_name;
  const fork = Boolean(headRepo && env.GITHUB_REPOSITORY && headRepo !== env.GITHUB_REPOSITORY);
  const branch: string | null = event.pull_request?.head?.ref ?? run?.head_branch ?? env.GITHUB_HEAD_REF ?? (env.GITHUB_REF?.startsWith('refs/heads/') ? env.GITHUB_REF_NAME : null) ?? null;
  return { branch: branch || null, pullRequest: typeof pr?.number === 'number' ? pr.number : null, fork: fork && Boolean(pr) };
}

/** "403: Resource not accessible by integration" — the status and GitHub's own words. */
function refusal(err: unknown): string {
  const e = err as { status?: number; message?: string; response?: { data?: { message?: string } } };
  const words = e.response?.data?.message ?? e.message ?? String(err);
  const hint = e.status === 403 ? '; the job needs `permissions: contents: write` and `pull-requests: write`, and the repository must allow GitHub Actions to create pull requests' : '';
  return `${e.status ?? 'no answer'}: ${words.split('\n')[0]}${hint}`;
}

/** A body GitHub accepts: the summary, without its diff block if that is what makes it too long. */
export function fit(body: string): string {
  if (body.length <= BODY_LIMIT) return body;
  const cut = body.replace(/<details><summary>The patch[\s\S]*?\n<\/details>/, '<p>The patch is too long for this page; it is in the commits of this pull request.</p>');
  return cut.length <= BODY_LIMIT ? cut : `${cut.slice(0, BODY_LIMIT - 40)}\n\n… (cut: the rest is in the job summary)`;
}

/** One commit on top of HEAD holding exactly the patch, made in a private index (the checkout is left alone). */
async function commitPatch(cwd: string, patchPath: string, message: string): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-commit-'));
  const top = (await git(cwd, ['rev-parse', '--show-toplevel'])).trim();
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index'), GIT_AUTHOR_NAME: BOT.name, GIT_AUTHOR_EMAIL: BOT.email, GIT_COMMITTER_NAME: BOT.name, GIT_COMMITTER_EMAIL: BOT.email };
    await git(top, ['read-tree', 'HEAD'], env);
    await git(top, ['apply', '--cached', '--binary', patchPath], env);
    const tree = (await git(top, ['write-tree'], env)).trim();
    return (await git(top, ['commit-tree', tree, '-p', 'HEAD', '-m', message], env)).trim();
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function remoteHasBranch(cwd: string, branch: string, env: NodeJS.ProcessEnv, token: string): Promise<boolean> {
  const out = await git(cwd, ['ls-remote', '--heads', 'origin', `refs/heads/${branch}`], pushEnv(env, token));
  return out.trim().length > 0;
}

/**
 * The token for an https origin on GitHub, through git's environment config: never in a command line (which any
 * process on the runner can read) nor in .git/config. The empty value first clears the header actions/checkout may
 * have stored, so git never sends two Authorization headers (GitHub refuses that).
 */
function pushEnv(env: NodeJS.ProcessEnv, token: string): Record<string, string> {
  const key = `http.${(env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/$/, '')}/.extraheader`;
  const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  return { GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: key, GIT_CONFIG_VALUE_0: '', GIT_CONFIG_KEY_1: key, GIT_CONFIG_VALUE_1: header };
}

function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error((stderr || err.message).trim().split('\n').filter(Boolean).pop() ?? `git ${args[0]} failed`));
      else resolve(stdout);
    });
  });
}

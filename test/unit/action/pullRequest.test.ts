// The pull-request path against a loopback fake of GitHub's REST API (real HTTP) and a bare repository as `origin`:
// a branch with one commit holding exactly the patch, a pull request whose body is the summary, and one sentence and a
// green step for every way it can end with nothing opened.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { actionHarness, GITHUB_TOKEN, MODEL_KEY } from './actionHarness';
import type { ActionHarness, ActionResult } from './actionHarness';
import { startFakeGithub } from '../../support/fakeGithubServer';
import type { FakeGithub, FakeGithubOptions } from '../../support/fakeGithubServer';
import { answer, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

const BRANCH = 'greenloop/fix-4242';

describe('the GitHub Action proposes a green run\'s fix as a pull request (fake GitHub REST API)', function () {
  this.timeout(180_000);
  let h: ActionHarness;
  let github: FakeGithub | undefined;
  beforeEach(async () => {
    h = await actionHarness({ branch: 'feature' });
  });
  afterEach(async () => {
    await github?.close();
    github = undefined;
    await h.close();
  });

  async function greenRun(opts: Partial<FakeGithubOptions> = {}, inputs: Record<string, string> = {}, event?: object): Promise<ActionResult> {
    github = await startFakeGithub({ origin: h.origin, token: GITHUB_TOKEN, ...opts });
    const env: NodeJS.ProcessEnv = { GITHUB_API_URL: github.url };
    if (event) {
      const file = path.join(h.scratch, 'pr-event.json');
      fs.writeFileSync(file, JSON.stringify(event));
      Object.assign(env, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: file, GITHUB_REF: 'refs/pull/7/merge', GITHUB_REF_NAME: '7/merge', GITHUB_HEAD_REF: 'feature', GITHUB_BASE_REF: 'main' });
    }
    return h.run([answer(FIX_ADD), answer(FIX_MUL)], { 'open-pull-request': 'true', 'github-token': GITHUB_TOKEN, ...inputs }, env);
  }

  const originBranches = () => execFileSync('git', ['for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads'], { cwd: h.origin, encoding: 'utf8' }).trim().split('\n');

  it('pushes a new branch with exactly the patch and opens a pull request whose body is the summary; comments on the triggering one', async () => {
    const event = { pull_request: { number: 7, head: { ref: 'feature', sha: h.sha, repo: { full_name: 'acme/calc' } }, base: { ref: 'main' } } };
    // A test command that records what it inherits: the code under test never sees the token nor the inputs.
    const dump = path.join(h.scratch, 'test-env.jsonl');
    const testCommand = `node -e "require('fs').appendFileSync(process.argv[1], JSON.stringify(process.env) + '\\n')" ${dump} && node --test test/`;
    const res = await greenRun({}, { 'test-command': testCommand }, event);
    assert.strictEqual(res.code, 0, res.stderr);
    const seen = fs.readFileSync(dump, 'utf8');
    assert.ok(seen.length > 0 && !seen.includes(GITHUB_TOKEN) && !seen.includes('GREENLOOP_INPUTS') && !seen.includes(MODEL_KEY), 'the test command inherits no token');
    assert.strictEqual(res.outputs['pull-request-url'], 'https://github.example/acme/calc/pull/100');
    assert.match(res.outputs['pull-request-note'], /^Opened https:\/\/github\.example\/acme\/calc\/pull\/100 from the branch greenloop\/fix-4242 into feature\.$/);

    // The branch: one commit on the checked-out one, whose change is the patch byte for byte; `feature` untouched.
    assert.deepStrictEqual(originBranches().sort(), [`feature ${h.sha}`, `${BRANCH} ${execFileSync('git', ['rev-parse', BRANCH], { cwd: h.origin, encoding: 'utf8' }).trim()}`].sort());
    const gitO = (...a: string[]) => execFileSync('git', a, { cwd: h.origin, encoding: 'utf8' });
    assert.strictEqual(gitO('rev-parse', `${BRANCH}^`).trim(), h.sha);
    assert.strictEqual(gitO('rev-list', '--count', `${h.sha}..${BRANCH}`).trim(), '1');
    const committed = gitO('diff', '--binary', '--full-index', '--no-renames', h.sha, BRANCH);
    assert.strictEqual(committed, fs.readFileSync(res.outputs['patch-path'], 'utf8'));

    // The pull request: from the new branch into the tested one, the body being exactly what the run added to the summary.
    assert.strictEqual(github!.pulls.length, 1);
    const pull = github!.pulls[0];
    assert.strictEqual(pull.head, BRANCH);
    assert.strictEqual(pull.base, 'feature');
    const runSummary = res.summary.slice(0, res.summary.indexOf('<p><b>Pull request:</b>'));
    assert.strictEqual(pull.body, runSummary);
    assert.match(pull.body, /## ✅ Greenloop: green/);
    assert.deepStrictEqual(github!.comments, [{ issue: 7, body: 'Greenloop made the failing tests pass: #100' }]);

    // The token went to GitHub only as the Authorization header; the model key never did.
    for (const r of github!.requests) {
      assert.strictEqual(r.headers.authorization, `token ${GITHUB_TOKEN}`);
      assert.ok(!r.rawBody.includes(GITHUB_TOKEN) && !r.rawBody.includes(MODEL_KEY));
    }
    assert.ok(!res.summary.includes(GITHUB_TOKEN));
  });

  it('a 403 from GitHub is one sentence naming the permissions, and the step stays green', async () => {
    const res = await greenRun({ refuse: (method, p) => (method === 'POST' && p.endsWith('/pulls') ? { status: 403, message: 'Resource not accessible by integration' } : undefined) });
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.outputs['pull-request-url'], '');
    assert.match(res.outputs['pull-request-note'], /^No pull request was opened: the fix is on the branch greenloop\/fix-4242, but GitHub refused to open the pull request \(403: Resource not accessible by integration; the job needs `permissions: contents: write` and `pull-requests: write`.*\)\.$/);
    assert.ok(!res.outputs['pull-request-note'].includes('\n'));
  });

  it('a branch that already exists is never moved: nothing is pushed, no pull request, one sentence', async () => {
    const res = await greenRun({ extraBranches: [BRANCH] });
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.outputs['pull-request-note'], `No pull request was opened: the branch ${BRANCH} already exists, and Greenloop never moves a branch it did not create.`);
    assert.deepStrictEqual(originBranches(), [`feature ${h.sha}`]);
    assert.deepStrictEqual(github!.requests.map((r) => r.method), ['GET']);
  });

  it('never pushes to the branch the run was triggered on', async () => {
    const res = await greenRun({}, { 'pull-request-branch': 'feature' });
    assert.strictEqual(res.code, 0);
    assert.strictEqual(res.outputs['pull-request-note'], 'No pull request was opened: pull-request-branch is feature, the branch this run was triggered on, and Greenloop never pushes to it.');
    assert.deepStrictEqual(originBranches(), [`feature ${h.sha}`]);
    assert.strictEqual(github!.requests.length, 0);
  });

  it('without a token it asks GitHub nothing and says so', async () => {
    const res = await greenRun({}, { 'github-token': '' });
    assert.strictEqual(res.code, 0);
    assert.match(res.outputs['pull-request-note'], /^No pull request was opened: no token; set the github-token input/);
    assert.strictEqual(github!.requests.length, 0);
    assert.deepStrictEqual(originBranches(), [`feature ${h.sha}`]);
  });

  it('a pull request from a fork gets the fix as a comment, and nothing is pushed', async () => {
    const event = { pull_request: { number: 9, head: { ref: 'feature', sha: h.sha, repo: { full_name: 'someone/calc' } }, base: { ref: 'main' } } };
    const res = await greenRun({}, {}, event);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(github!.comments.length, 1);
    assert.strictEqual(github!.comments[0].issue, 9);
    assert.match(github!.comments[0].body, /## ✅ Greenloop: green/);
    assert.match(res.outputs['pull-request-note'], /comes from a fork this token cannot push to, so the fix was posted on it as a comment/);
    assert.deepStrictEqual(originBranches(), [`feature ${h.sha}`]);
  });
});

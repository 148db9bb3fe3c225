// A workflow that sets GITHUB_TOKEN (or GH_TOKEN) for the whole job, as many do: in a simulated Actions job through
// dist/action.js, the test command, a checker (real gcc) and an agent — all running code a model wrote — never see the
// platform's credentials nor a copy of the token, but for the variable `pass-env` names; the action still opens the
// pull request with the token, and the summary and the pull request name the tests fixed, with no runner path in them.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { actionHarness, GITHUB_TOKEN } from './actionHarness';
import type { ActionHarness } from './actionHarness';
import { startFakeGithub } from '../../support/fakeGithubServer';
import type { FakeGithub } from '../../support/fakeGithubServer';

const KEPT_PAT = 'ghp_PLANTEDpersonalTOKENkept98765';
const PLATFORM: Record<string, string> = {
  GITHUB_TOKEN,
  ACTIONS_RUNTIME_TOKEN: 'rt-PLANTED-runtime-token-0001',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-PLANTED-request-token-0002',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.example/PLANTED-request-url',
  // A name nothing would take for a credential, holding the token input's value.
  DEPLOY_HELPER: GITHUB_TOKEN,
};

/** A node script that appends its whole environment to `file` as one JSON line. */
function envDumper(dir: string, name: string): { script: string; file: string } {
  const file = path.join(dir, `${name}-env.jsonl`);
  const script = path.join(dir, `${name}-dump.js`);
  fs.writeFileSync(script, `require('fs').appendFileSync(${JSON.stringify(file)}, JSON.stringify(process.env) + '\\n');\n`);
  return { script, file };
}

function dumps(file: string): NodeJS.ProcessEnv[] {
  return fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as NodeJS.ProcessEnv);
}

describe('in a GitHub Actions job the model\'s code never sees the platform\'s credentials (dist/action.js)', function () {
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

  it('withholds them from the test command, the checker and the agent, keeps the pass-env one, and still opens the pull request', async () => {
    github = await startFakeGithub({ origin: h.origin, token: GITHUB_TOKEN });
    // The helper scripts sit in $RUNNER_TEMP, where a workflow keeps its own: the summary names them as $RUNNER_TEMP/….
    const runnerTemp = path.join(h.scratch, 'runner-temp');
    const tests = envDumper(runnerTemp, 'test');
    const check = envDumper(runnerTemp, 'check');
    const agent = envDumper(runnerTemp, 'agent');
    // The agent: records what it inherits, then makes both fixes (adds and multiplies) in one attempt.
    const agentScript = path.join(h.scratch, 'agent.js');
    fs.writeFileSync(agentScript, [
      `require(${JSON.stringify(agent.script)});`,
      "const fs = require('fs');",
      "const s = fs.readFileSync('src/calc.js', 'utf8');",
      "fs.writeFileSync('src/calc.js', s.replace('return a - b;', 'return a + b;').replace('function mul(a, b) {\\n  return a + b;', 'function mul(a, b) {\\n  return a * b;'));",
    ].join('\n'));
    const res = await h.run([], {
      'base-url': '', model: '', 'api-key-env': '',
      'agent-command': `node ${JSON.stringify(agentScript)}`,
      'test-command': `node ${JSON.stringify(tests.script)} && node --test test/`,
      // A real checker, gcc, on a C file with nothing in it: clean, and silent.
      checks: `node ${JSON.stringify(check.script)} && gcc -fsyntax-only -x c /dev/null:gcc`,
      'pass-env': 'GH_TOKEN',
      'open-pull-request': 'true', 'github-token': GITHUB_TOKEN,
    }, { ...PLATFORM, GH_TOKEN: KEPT_PAT, GITHUB_API_URL: github.url });
    assert.strictEqual(res.code, 0, res.stderr);

    for (const [who, file] of [['the test command', tests.file], ['the checker', check.file], ['the agent', agent.file]]) {
      const seen = dumps(file);
      assert.ok(seen.length > 0, `${who} ran`);
      for (const env of seen) {
        for (const name of Object.keys(PLATFORM)) assert.strictEqual(env[name], undefined, `${name} reached ${who}`);
        assert.ok(!JSON.stringify(env).includes(GITHUB_TOKEN), `the token's value reached ${who}`);
        assert.strictEqual(env.GH_TOKEN, KEPT_PAT, `pass-env keeps GH_TOKEN for ${who}`);
      }
    }

    // The action itself still used the token: the branch was pushed and the pull request opened with it.
    assert.strictEqual(github.pulls.length, 1, res.outputs['pull-request-note']);
    for (const r of github.requests) assert.strictEqual(r.headers.authorization, `token ${GITHUB_TOKEN}`);

    // The summary and the pull request name the tests the change fixed, link the run, and hold no runner path.
    const body: string = github.pulls[0].body;
    for (const text of [res.summary, body]) {
      assert.match(text, /<p><b>Fixed:<\/b> 2 tests<\/p>\n<ul>\n<li><code>calc &gt; adds<\/code><\/li>\n<li><code>calc &gt; multiplies<\/code><\/li>\n<\/ul>/);
      assert.ok(text.includes('<a href="https://github.example/acme/calc/actions/runs/4242">run 4242</a>'), text);
      assert.ok(text.includes('href="https://github.example/acme/calc/actions/runs/4242#artifacts"'), text);
      assert.match(text, /<code>report\.json<\/code> and <code>report\.patch<\/code>/);
    }
    for (const local of [h.project, h.scratch, fs.realpathSync(h.project), fs.realpathSync(h.scratch), `${os.tmpdir()}${path.sep}`, os.homedir()]) {
      assert.ok(!body.includes(local), `the pull request body holds ${local}:\n${body}`);
    }
    assert.ok(!body.includes(GITHUB_TOKEN) && !body.includes(KEPT_PAT));
  });
});

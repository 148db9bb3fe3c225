// `greenloop fix` with an agent CLI (a small real one, test/support/miniAgent.js) whose every model request goes
// through Greenloop's gateway to a scripted Chat Completions server: counted, capped, and judged by the verifier.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, tempProject } from '../support/cli';
import { directTestCommand } from '../support/fixHarness';
import { startFakeOpenAIServer, type FakeOpenAIServer, type ScriptStep } from '../../support/fakeOpenAIServer';

const AGENT = `node ${JSON.stringify(path.resolve(__dirname, '../../support/miniAgent.js'))}`;
const USAGE = { prompt_tokens: 100, completion_tokens: 10 };
const say = (content: string): ScriptStep => ({ content, usage: USAGE });

const CALC_FIXED_ADD = "'use strict';\n\nfunction add(a, b) {\n  return a + b;\n}\n\nfunction mul(a, b) {\n  return a + b;\n}\n\nfunction neg(a) {\n  return -a;\n}\n\nmodule.exports = { add, mul, neg };\n";
const CALC_FIXED = CALC_FIXED_ADD.replace('return a + b;\n}\n\nfunction neg', 'return a * b;\n}\n\nfunction neg');

describe('greenloop fix with an agent CLI through the model gateway', function () {
  this.timeout(120_000);
  let server: FakeOpenAIServer;
  let project: string;
  let stateDir: string;

  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    project = tempProject('calc');
    stateDir = tempDir('state');
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(project, { recursive: true, force: true });
  });

  async function fix(script: ScriptStep[], extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
    server.push(...script);
    const res = await runCli(['fix', '--cwd', project, '--actor-cmd', AGENT, '--tsc', 'off', '--state-dir', stateDir, '--json', ...directTestCommand(project), ...extra], { env: { OPENAI_BASE_URL: server.url, ...env }, timeoutMs: 110_000 });
    return { ...res, report: JSON.parse(res.stdout) };
  }
  const read = (rel: string) => fs.readFileSync(path.join(project, rel), 'utf8');
  const original = (rel: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/projects/calc', rel), 'utf8');

  it('caps the requests of an attempt, and the report counts exactly what reached the model', async () => {
    // An agent that would read forever: every answer asks for one more file.
    const script = Array.from({ length: 30 }, (_, i) => say(`RUN echo step ${i}`));
    const { report, stderr } = await fix(script, ['--agent-requests-per-attempt', '3', '--max-iterations', '2']);
    assert.equal(server.requests.length, 6, stderr);
    assert.equal(report.requests, 6);
    assert.deepEqual(report.tokens, { prompt: 600, completion: 60 });
    assert.deepEqual(report.iterations.map((it: any) => [it.agent.requests, it.agent.stoppedBy]), [[3, 'request-cap'], [3, 'request-cap']]);
    assert.ok(report.iterations.every((it: any) => it.agent.exactTokens));
    // The person following along sees what each attempt spent and why it ended.
    assert.match(stderr, /attempt 1\/2 — asking the agent/);
    assert.match(stderr, /attempt 1: invalid-proposal — 2 failing, 0 type errors \[agent: 3 requests \(1 answered by Greenloop: request-cap\), exit 0\]/);
  });

  it('points an agent at the gateway by itself when its environment names the model (OPENAI_BASE_URL)', async () => {
    const { report } = await fix([say(`WRITE src/calc.js\n${CALC_FIXED}`), say('All fixed: add and mul had the wrong operators.')]);
    assert.equal(report.outcome, 'green');
    assert.equal(report.requests, 2);
    assert.equal(report.iterations[0].hypothesis.includes('wrong operators'), true, 'the hypothesis is the agent\'s last message');
  });

  it('judges what the agent left whatever its exit code: a real fix then exit 53 is kept', async () => {
    const { report, code } = await fix([
      say(`WRITE src/calc.js\n${CALC_FIXED_ADD}`), say('EXIT 53'),
      say(`WRITE src/calc.js\n${CALC_FIXED}`), say('EXIT 53'),
    ]);
    assert.equal(report.outcome, 'green', report.reasonText);
    assert.equal(code, 0);
    assert.deepEqual(report.iterations.map((it: any) => [it.verdict, it.agent.exitCode]), [['progress', 53], ['green', 53]]);
  });

  it('puts back only the protected test the agent weakened, keeps its real fix, and tells it next time', async () => {
    const weakened = original('test/calc.test.js').replace('assert.equal(mul(2, 3), 6)', 'assert.ok(true)');
    const { report } = await fix([
      say(`WRITE src/calc.js\n${CALC_FIXED_ADD}`), say(`WRITE test/calc.test.js\n${weakened}`), say('Done: all tests pass now.'),
      say('I cannot do more.'),
      say('I cannot do more either.'),
    ], ['--max-iterations', '3']);
    assert.equal(read('test/calc.test.js'), original('test/calc.test.js'), 'the test is as it was');
    assert.equal(read('src/calc.js'), CALC_FIXED_ADD, 'the real fix is kept');
    const first = report.iterations[0];
    assert.equal(first.verdict, 'progress');
    assert.deepEqual(first.reverted.map((r: any) => r.path), ['test/calc.test.js']);
    assert.deepEqual(report.final.failing, ['calc > multiplies']);
    const nextTask = server.requests[3]!.body.messages[0].content as string;
    assert.match(nextTask, /put back your changes to `?test\/calc\.test\.js`? before testing the rest: test\/calc\.test\.js is a protected test file/, nextTask.slice(nextTask.indexOf("## Previous"), nextTask.indexOf("## Previous") + 800));
  });

  it('undoes an attempt that ran past --agent-timeout-s before the next one starts', async () => {
    const { report } = await fix([
      say('WRITE src/calc.js\nhalf-written'), say('SLEEP 300'),
      say('READ src/calc.js'), say(`WRITE src/calc.js\n${CALC_FIXED}`), say('Fixed.'),
    ], ['--agent-timeout-s', '10']);
    // 10 s: far below the first agent's 300 s sleep, far above what the second needs for its three requests.
    assert.equal(report.iterations[0].verdict, 'invalid-proposal');
    assert.match(report.iterations[0].note, /ran longer than its 10 s limit \(--agent-timeout-s\).*undone/);
    // The second attempt read the file as it was before the first one, not its half-written state.
    const readBack = server.requests[3]!.body.messages.at(-1).content as string;
    assert.equal(readBack, original('src/calc.js'));
    assert.equal(report.outcome, 'green');
  });

  it('stops an agent that keeps asking after it was told its attempt is over, and reports what it spent', async () => {
    const script = Array.from({ length: 10 }, (_, i) => say(`RUN echo step ${i}`));
    const { report, code } = await fix(script, ['--agent-requests-per-attempt', '2'], { MINI_AGENT_STUBBORN: '1' });
    assert.equal(code, 1);
    assert.equal(report.reason, 'actor-error');
    assert.match(report.reasonText, /kept asking its model after Greenloop answered that its attempt was over/);
    assert.equal(report.iterations.length, 1);
    assert.equal(report.iterations[0].agent.requests, 2);
    assert.equal(report.requests, 2);
    assert.deepEqual(report.tokens, { prompt: 200, completion: 20 });
    assert.equal(server.requests.length, 2);
  });

  it('gives the agent a placeholder and sends the real key upstream itself (--api-key-env)', async () => {
    const { report } = await fix([say(`WRITE src/calc.js\n${CALC_FIXED}`), say('Fixed.')], ['--api-key-env', 'MY_MODEL_KEY'], { MY_MODEL_KEY: 'sk-real-secret-0123456789' });
    assert.equal(report.outcome, 'green');
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer sk-real-secret-0123456789');
  });

  it('says in one sentence that an unknown agent preset is not one it knows', async () => {
    const res = await runCli(['fix', '--cwd', project, '--agent', 'gpt-engineer', '--state-dir', stateDir]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /Unknown agent "gpt-engineer"; use one of qwen, codex, opencode, aider, claude/);
  });
});

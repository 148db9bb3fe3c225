// The real Claude Code CLI with Greenloop's Stop hook in its settings: an agent that declares "done" after one fix
// of three is sent back to work by the hook (the tests decide), and is let go once they pass.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { declaresDoneEarly, CALC3_FIXTURE } from '../../support/agentScenarios';
import { CLAUDE_DEFAULT_ARGS, installClaude, spawnClaude } from '../../support/claudeAgent';
import { countFailingTests, makeFixtureWorkspace } from '../../support/qwenAgent';
import { startScriptedAnthropicModel } from '../../support/scriptedAnthropicModel';
import { ensureCliBuilt } from '../support/cli';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

const ROOT = path.resolve(__dirname, '../../..');

describe('Claude Code with `greenloop hook claude-stop` as its Stop hook (real claude)', function () {
  // Verdicts are counts (requests, attempts, failing tests); this limit only catches a hang (see agentTimeouts.ts).
  this.timeout(REAL_AGENT_TEST_MS);
  let bin = '';

  before(async function () {
    try {
      bin = await installClaude();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  it('sends an agent that stops early back to work until the tests pass, then lets it stop', async () => {
    const cli = ensureCliBuilt();
    const ws = makeFixtureWorkspace(path.join(ROOT, CALC3_FIXTURE));
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-hook-state-'));
    const model = await startScriptedAnthropicModel({ scenario: declaresDoneEarly(), workspace: ws.workspace });
    const hook = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} hook claude-stop --tsc off --state-dir ${JSON.stringify(stateDir)}`;
    const settings = { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hook, timeout: 120 }] }], Stop: [{ hooks: [{ type: 'command', command: hook, timeout: 120 }] }] } };
    try {
      const child = spawnClaude({ bin, workspace: ws.workspace, home: ws.home, modelUrl: model.url, args: [...CLAUDE_DEFAULT_ARGS, '--settings', JSON.stringify(settings)] });
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c));
      child.stderr!.on('data', (c: Buffer) => (out += c));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 0, out);
      assert.equal(await countFailingTests(ws.workspace), 0, 'the agent was sent back until every test passed');
      // The hook's block reached the agent as its next instruction, naming what still fails.
      const blocked = model.requests.map((r) => JSON.stringify(r.body.messages)).find((m) => m.includes('Greenloop (the tests decide, not you)'));
      assert.ok(blocked, `no request carried the hook's reason; the agent saw:\n${JSON.stringify(model.requests.at(-1)?.body.messages).slice(-2000)}`);
      assert.match(blocked!, /CONTINUE: check 1 of 8/);
      assert.match(blocked!, /mul multiplies/);
      assert.match(out.trim().split('\n').at(-1) ?? '', /Done: all three fixed\./);
    } finally {
      await model.close();
      ws.remove();
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

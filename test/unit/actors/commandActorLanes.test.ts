// Several agents of one attempt at once (`--candidates N` with an agent CLI): each runs in its own folder through a
// gateway of its own, so each is metered alone — its own requests and tokens, its own bound — and none closes another's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandActor } from '../../../src/actors/commandActor';
import type { ActorError, AgentAttempt, TokenUsage } from '../../../src/ports/actor';

type Spent = { usage?: TokenUsage; agent?: AgentAttempt; error?: string };
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { ROOT, tempDir } from '../support/cli';

const MINI_AGENT = path.join(ROOT, 'test', 'support', 'miniAgent.js');

describe('CommandActor: agents side by side, one gateway each', function () {
  this.timeout(60_000);

  it('counts each agent\'s requests and tokens apart, and each is bounded by its own request cap', async () => {
    // Every answer asks for nothing the agent can do, so a plain agent stops after one; a stubborn one keeps asking and
    // meets its own cap of 2.
    const server = await startFakeOpenAIServer(Array.from({ length: 6 }, () => ({ content: 'Nothing to change.', usage: { prompt_tokens: 100, completion_tokens: 7 } })));
    const dirs = [tempDir('lane-1'), tempDir('lane-2')];
    const actor = new CommandActor({
      command: `node ${JSON.stringify(MINI_AGENT)}`, timeoutMs: 50_000, env: { MINI_AGENT_STUBBORN: '1' },
      gateway: { upstream: server.url, baseUrlVars: ['OPENAI_BASE_URL'], requestsPerAttempt: 2 },
    });
    try {
      const ask = (k: number) => actor.propose({
        prompt: 'fix it', system: '', iteration: 1, cwd: dirs[k - 1]!, signal: new AbortController().signal,
        copy: { lane: k, state: async () => `tree-${k}` },
      }).then((r): Spent => ({ usage: r.usage, agent: r.kind === 'workspace-edited' ? r.agent : undefined }), (err: ActorError) => ({ usage: err.spent?.usage, agent: err.spent?.agent, error: err.message }));
      const results = await Promise.all([ask(1), ask(2)]);
      for (const r of results) {
        assert.ok(r.agent, `each agent has its own account: ${JSON.stringify(results.map((x) => x.error ?? 'ok'))}`);
        assert.equal(r.agent.requests >= 2, true);
        assert.equal(r.agent.stoppedBy, 'request-cap', 'each met its own cap, not the other\'s');
        assert.deepEqual({ prompt: r.usage?.prompt, completion: r.usage?.completion }, { prompt: 200, completion: 14 }, 'its own two answers\' tokens');
      }
      assert.equal(server.requests.length, 4, 'two forwarded requests per agent, no more');
    } finally {
      await actor.dispose();
      await server.close();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});

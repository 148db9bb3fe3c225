// The real OpenAI Codex CLI run by `greenloop fix --agent codex`: it speaks only the Responses API, and every request
// goes through the gateway's Responses side to a loopback model that answers in that protocol. The report counts
// exactly what the model served, and a model that changes nothing ends the run by stagnation, not by its own word.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCliBuilt, tempDir, tempProject } from '../support/cli';
import { REAL_AGENT_RUN_MS, REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

const INSTALL = path.resolve(__dirname, '../../../scripts/agents/install-codex.sh');

/** A Responses model that answers every request with the same text and reports its usage. */
async function responsesModel(): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!req.url!.includes('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"not found"}}');
        return;
      }
      requests += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let seq = 0;
      const ev = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
      const msg = { type: 'message', id: `msg_${requests}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'I could not find the bug.', annotations: [] }] };
      const resp = { id: `resp_${requests}`, object: 'response', created_at: 1, status: 'completed', model: 'scripted', output: [msg], usage: { input_tokens: 1000, output_tokens: 7, total_tokens: 1007 } };
      ev('response.created', { response: { ...resp, status: 'in_progress', output: [], usage: null } });
      ev('response.output_item.added', { output_index: 0, item: { ...msg, status: 'in_progress', content: [] } });
      ev('response.output_text.delta', { output_index: 0, item_id: msg.id, content_index: 0, delta: 'I could not find the bug.' });
      ev('response.output_item.done', { output_index: 0, item: msg });
      ev('response.completed', { response: resp });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, get requests() { return requests; }, close: () => new Promise((r) => server.close(() => r())) };
}

describe('greenloop fix --agent codex (the real Codex CLI through the gateway\'s Responses side)', function () {
  // Verdicts are counts (requests, attempts, failing tests); this limit only catches a hang (see agentTimeouts.ts).
  this.timeout(REAL_AGENT_TEST_MS);
  let bin = '';

  before(function (done) {
    execFile('bash', [INSTALL], { timeout: 300_000 }, (err, stdout, stderr) => {
      bin = stdout.trim().split('\n').pop() ?? '';
      if (err || !fs.existsSync(bin)) {
        // A real agent that cannot be installed fails the suite with its name; it is never skipped.
        return done(new Error(`codex could not be installed: ${stderr.trim().split('\n').pop()}`));
      }
      done();
    });
  });

  it('counts every Responses request and its usage exactly, and ends a model that changes nothing by stagnation', async () => {
    const model = await responsesModel();
    const project = tempProject('calc');
    const home = fs.mkdtempSync(path.join(os.homedir(), '.greenloop-codex-home-'));
    fs.mkdirSync(path.join(home, '.codex'));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|OPENAI_|CODEX_)/i.test(k)) env[k] = v;
    Object.assign(env, { HOME: home, CODEX_HOME: path.join(home, '.codex'), OPENAI_API_KEY: 'sk-test-codex-0000', PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH}` });
    try {
      const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [ensureCliBuilt(), 'fix', '--cwd', project, '--agent', 'codex', '--agent-upstream', model.url, '--model', 'scripted', '--tsc', 'off', '--state-dir', tempDir('state'), '--json'],
          { env, timeout: REAL_AGENT_RUN_MS }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }));
      });
      const report = JSON.parse(out.stdout);
      assert.equal(report.reason, 'stagnation', out.stderr);
      assert.deepEqual(report.iterations.map((it: any) => [it.verdict, it.agent.exitCode, it.agent.exactTokens]), [['invalid-proposal', 0, true], ['invalid-proposal', 0, true]]);
      assert.equal(report.requests, model.requests);
      assert.deepEqual(report.tokens, { prompt: 1000 * model.requests, completion: 7 * model.requests });
    } finally {
      await model.close();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

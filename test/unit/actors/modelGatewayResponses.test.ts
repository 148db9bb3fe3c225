// The model gateway in front of an OpenAI Responses API upstream (what Codex CLI speaks): real loopback servers.
import { strict as assert } from 'assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelGateway } from '../../../src/actors/gateway/modelGateway';
import { readSse } from '../../../src/actors/sse';
import { codexExecResult, nodeTestOutput } from '../support/agentToolOutput';

interface Upstream { url: string; bodies: any[]; close(): Promise<void> }

/** Streams a function call or a text answer as named Responses events, with the usage in response.completed. */
async function responsesUpstream(answers: Array<{ text?: string; call?: string }>): Promise<Upstream> {
  const bodies: any[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      bodies.push(JSON.parse(raw));
      const a = answers.shift() ?? { text: 'out of script' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev('response.created', { response: { id: 'r', status: 'in_progress', output: [] } });
      const item = a.call ? { type: 'function_call', name: a.call, arguments: '{"cmd":"npm test"}', call_id: 'c1' } : { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: a.text }] };
      if (!a.call) ev('response.output_text.delta', { delta: a.text });
      ev('response.output_item.done', { item });
      ev('response.completed', { response: { id: 'r', status: 'completed', output: [item], usage: { input_tokens: 321, output_tokens: 9, total_tokens: 330 } } });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

async function respond(url: string, body: object): Promise<Array<{ event?: string; data: any }>> {
  const res = await fetch(`${url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream: true, ...body }) });
  const events: Array<{ event?: string; data: any }> = [];
  await readSse(res.body!, (data, event) => {
    events.push({ event, data: JSON.parse(data) });
  });
  return events;
}

const call = (cmd: string) => ({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ cmd }), call_id: `c${Math.random()}` });
const output = (text: string) => ({ type: 'function_call_output', call_id: `c${Math.random()}`, output: text });

describe('model gateway (OpenAI Responses)', () => {
  let upstream: Upstream;
  let gateway: ModelGateway;
  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('counts the usage of response.completed, passes named events through, and caps max_output_tokens to the budget', async () => {
    upstream = await responsesUpstream([{ call: 'shell' }]);
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 5, tokensLeft: 5000, cwd: process.cwd() });
    const events = await respond(gateway.url, { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix' }] }] });
    assert.deepEqual(events.map((e) => e.event), ['response.created', 'response.output_item.done', 'response.completed']);
    assert.deepEqual(meter.ledger.tokens, { prompt: 321, completion: 9, estimated: false });
    assert.equal(meter.ledger.log[0]!.answer, 'called shell');
    assert.ok(upstream.bodies[0].max_output_tokens < 5000);
  });

  it('answers past the cap with a completed response holding a final message, without asking the upstream', async () => {
    upstream = await responsesUpstream([{ call: 'shell' }]);
    gateway = await ModelGateway.start({ upstream: upstream.url });
    gateway.openAttempt({ maxRequests: 1, cwd: process.cwd() });
    await respond(gateway.url, { input: 'fix' });
    const last = await respond(gateway.url, { input: [call('npm test'), output('fail')] });
    assert.equal(upstream.bodies.length, 1);
    const done = last.find((e) => e.event === 'response.completed')!.data.response;
    assert.equal(done.status, 'completed');
    assert.match(done.output[0].content[0].text, /budget of model requests is spent; stop now/);
    assert.ok(!done.output.some((i: any) => i.type === 'function_call'));
  });

  it("stops Codex when its test runs fail the same tests after each edit, through its varying exec output", async () => {
    upstream = await responsesUpstream(Array.from({ length: 8 }, () => ({ call: 'exec_command' })));
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const input: object[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix' }] }];
    await respond(gateway.url, { input });
    let n = 0;
    const exec = (cmd: string, out: string) => {
      const id = `call_${++n}`;
      return [{ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, workdir: process.cwd() }), call_id: id }, { type: 'function_call_output', call_id: id, output: codexExecResult(out) }];
    };
    const failing = ['add adds', 'mul multiplies', 'square squares'];
    // apply_patch appends one more comment each time: its output names the new line.
    const patch = (i: number) => exec(`apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: calc.js\n@@\n-function add(a, b) {\n+function add(a, b) { // checked\n*** End Patch\nEOF`, `Success. Updated the following files:\nM calc.js (${i} comments)`);
    const texts: string[] = [];
    for (const step of [exec('npm test', nodeTestOutput(failing)), patch(1), exec('npm test', nodeTestOutput(failing)), patch(2), exec('npm test', nodeTestOutput(failing))]) {
      input.push(...step);
      const events = await respond(gateway.url, { input });
      texts.push(events.find((e) => e.event === 'response.output_text.delta')?.data.delta ?? 'call');
    }
    assert.deepEqual(texts.slice(0, 4), ['call', 'call', 'call', 'call']);
    assert.match(texts[4]!, /failed as many tests as before/);
    assert.equal(meter.ledger.stoppedBy, 'tests-stalled');
    assert.equal(upstream.bodies.length, 5);
  });

  it('stops Codex polling the same command whose output only differs in its chunk id, wall time and timings', async () => {
    upstream = await responsesUpstream(Array.from({ length: 8 }, () => ({ call: 'exec_command' })));
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const input: object[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix' }] }];
    await respond(gateway.url, { input });
    const texts: string[] = [];
    const poll = (i: number) => {
      const took = (10 + Math.random() * 90).toFixed(2);
      return [{ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm run build' }), call_id: `b${i}` }, { type: 'function_call_output', call_id: `b${i}`, output: codexExecResult(`tsc failed in ${took}ms\nsrc/calc.ts(3,5): error TS2322`) }];
    };
    // Between the polls, an edit whose output is new each time: no two steps alike.
    const edit = (i: number) => [{ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `echo '// ${i}' >> calc.ts` }), call_id: `e${i}` }, { type: 'function_call_output', call_id: `e${i}`, output: codexExecResult('') }];
    for (const step of [poll(1), edit(1), poll(2), edit(2), poll(3)]) {
      input.push(...step);
      const events = await respond(gateway.url, { input });
      texts.push(events.find((e) => e.event === 'response.output_text.delta')?.data.delta ?? 'call');
    }
    assert.deepEqual(texts.slice(0, 4), ['call', 'call', 'call', 'call']);
    assert.match(texts[4]!, /same call again and got the same result/);
    assert.equal(meter.ledger.stoppedBy, 'unchanged-result');
  });

  it('tells a repeated function call with the same output (call ids aside) as going in circles', async () => {
    upstream = await responsesUpstream(Array.from({ length: 6 }, () => ({ call: 'shell' })));
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const input: object[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix' }] }];
    await respond(gateway.url, { input });
    const texts: string[] = [];
    for (let i = 1; i <= 4; i++) {
      input.push(call(i % 2 ? 'sed -i s/a/b/ calc.js' : 'npm test'), output(i % 2 ? '' : 'not ok 1 adds'));
      const events = await respond(gateway.url, { input });
      texts.push(events.find((e) => e.event === 'response.output_text.delta')?.data.delta ?? 'call');
    }
    assert.deepEqual(texts.slice(0, 3), ['call', 'call', 'call']);
    assert.match(texts[3]!, /going in circles/);
    assert.equal(meter.ledger.stoppedBy, 'repeated-step');
  });
});

// The model gateway speaking the Anthropic Messages API (Claude Code's protocol), in front of a real loopback upstream.
import { strict as assert } from 'assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelGateway } from '../../../src/actors/gateway/modelGateway';
import { readSse } from '../../../src/actors/sse';
import { nodeTestOutput } from '../support/agentToolOutput';

interface Upstream { url: string; requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: any }>; close(): Promise<void> }

/** Answers every /v1/messages with a streamed tool call or text, with the usage Anthropic reports (cache tokens too). */
async function anthropicUpstream(answers: Array<{ text?: string; tool?: string }>): Promise<Upstream> {
  const requests: Upstream['requests'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      requests.push({ method: req.method!, path: req.url!, headers: req.headers, body: raw ? JSON.parse(raw) : null });
      if (!req.url!.startsWith('/v1/messages')) {
        res.writeHead(200);
        res.end();
        return;
      }
      const a = answers.shift() ?? { text: 'out of script' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (name: string, data: object) => res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`);
      ev('message_start', { message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 30, cache_creation_input_tokens: 100, cache_read_input_tokens: 70, output_tokens: 1 } } });
      if (a.tool) {
        ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: a.tool, input: {} } });
        ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"command":' } });
        ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '"npm test"}' } });
      } else {
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: a.text } });
      }
      ev('content_block_stop', { index: 0 });
      ev('message_delta', { delta: { stop_reason: a.tool ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 12 } });
      ev('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

async function messages(gatewayUrl: string, body: object, headers: Record<string, string> = {}): Promise<Array<{ event?: string; data: any }>> {
  const res = await fetch(`${gatewayUrl}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-agent', ...headers }, body: JSON.stringify({ stream: true, model: 'claude', max_tokens: 128000, ...body }) });
  const events: Array<{ event?: string; data: any }> = [];
  await readSse(res.body!, (data, event) => {
    events.push({ event, data: JSON.parse(data) });
  });
  return events;
}

const toolUse = (i: number, command: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command } }] });
const toolResult = (i: number, text: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: text }] });

describe('model gateway (Anthropic Messages)', () => {
  let upstream: Upstream;
  let gateway: ModelGateway;
  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('passes the named events through and counts input (cache included) and output tokens', async () => {
    upstream = await anthropicUpstream([{ tool: 'Bash' }]);
    gateway = await ModelGateway.start({ upstream: upstream.url, protocol: 'anthropic-messages' });
    const meter = gateway.openAttempt({ maxRequests: 5, cwd: process.cwd() });
    assert.equal(gateway.url.endsWith('/v1'), false, 'Claude Code appends /v1/messages itself');
    const events = await messages(gateway.url, { messages: [{ role: 'user', content: 'fix' }] });
    assert.deepEqual(events.map((e) => e.event), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    assert.equal(upstream.requests[0]!.path, '/v1/messages?beta=true');
    assert.deepEqual(meter.ledger.tokens, { prompt: 200, completion: 12, estimated: false });
    assert.equal(meter.ledger.log[0]!.answer, 'called Bash');
  });

  it('answers past the cap with an Anthropic end_turn message and no tool use', async () => {
    upstream = await anthropicUpstream([{ tool: 'Bash' }, { tool: 'Bash' }]);
    gateway = await ModelGateway.start({ upstream: upstream.url, protocol: 'anthropic-messages' });
    gateway.openAttempt({ maxRequests: 1, cwd: process.cwd() });
    await messages(gateway.url, { messages: [{ role: 'user', content: 'fix' }] });
    const last = await messages(gateway.url, { messages: [{ role: 'user', content: 'fix' }, toolUse(1, 'npm test'), toolResult(1, 'fail')] });
    assert.equal(upstream.requests.filter((r) => r.path.startsWith('/v1/messages')).length, 1);
    assert.equal(last.find((e) => e.event === 'message_delta')!.data.delta.stop_reason, 'end_turn');
    assert.match(last.find((e) => e.event === 'content_block_delta')!.data.delta.text, /budget of model requests is spent; stop now/);
    assert.ok(!last.some((e) => e.data.content_block?.type === 'tool_use'));
  });

  it('sees the same tool_use and tool_result steps again (ids aside) as going in circles', async () => {
    upstream = await anthropicUpstream(Array.from({ length: 6 }, () => ({ tool: 'Bash' })));
    gateway = await ModelGateway.start({ upstream: upstream.url, protocol: 'anthropic-messages' });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const convo: object[] = [{ role: 'user', content: 'fix' }];
    await messages(gateway.url, { messages: convo });
    const said: string[] = [];
    for (let i = 1; i <= 4; i++) {
      convo.push(toolUse(i, i % 2 ? 'sed -i s/a/b/ calc.js' : 'npm test'), toolResult(i, i % 2 ? '' : 'not ok 1 adds'));
      const events = await messages(gateway.url, { messages: convo });
      said.push(events.find((e) => e.event === 'content_block_delta')?.data.delta.text ?? 'tool');
    }
    assert.equal(meter.ledger.stoppedBy, 'repeated-step');
    assert.match(said[3]!, /going in circles/);
    assert.equal(said.slice(0, 3).every((s) => s === 'tool'), true);
  });

  it('stops Claude Code when its test runs fail the same tests after each edit, read from tool_use/tool_result blocks', async () => {
    upstream = await anthropicUpstream(Array.from({ length: 8 }, () => ({ tool: 'Bash' })));
    gateway = await ModelGateway.start({ upstream: upstream.url, protocol: 'anthropic-messages' });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const convo: object[] = [{ role: 'user', content: 'fix' }];
    await messages(gateway.url, { messages: convo });
    const failing = ['add adds', 'mul multiplies'];
    // Each edit appends one more comment, so its result (the edited lines) is new every time.
    const edit = (i: number) => [
      { role: 'assistant', content: [{ type: 'text', text: 'Trying again.' }, { type: 'tool_use', id: `toolu_e${i}`, name: 'Edit', input: { file_path: 'calc.js', old_string: 'add(a, b) {', new_string: 'add(a, b) { // checked' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_e${i}`, content: [{ type: 'text', text: `function add(a, b) {${' // checked'.repeat(i)}` }] }] },
    ];
    const said: string[] = [];
    for (const [i, step] of [[toolUse(1, 'npm test'), toolResult(1, nodeTestOutput(failing))], edit(1), [toolUse(2, 'npm test'), toolResult(2, nodeTestOutput(failing))], edit(2), [toolUse(3, 'npm test'), toolResult(3, nodeTestOutput(failing))]].entries()) {
      convo.push(...step);
      const events = await messages(gateway.url, { messages: convo });
      said.push(events.find((e) => e.event === 'content_block_delta')?.data.delta.text ?? `tool ${i}`);
    }
    assert.deepEqual(said.slice(0, 4), ['tool 0', 'tool 1', 'tool 2', 'tool 3']);
    assert.match(said[4]!, /failed as many tests as before/);
    assert.equal(meter.ledger.stoppedBy, 'tests-stalled');
    assert.equal(upstream.requests.filter((r) => r.path.startsWith('/v1/messages')).length, 5);
  });

  it('lets Claude Code go on while its test runs fail fewer tests', async () => {
    upstream = await anthropicUpstream(Array.from({ length: 8 }, () => ({ tool: 'Bash' })));
    gateway = await ModelGateway.start({ upstream: upstream.url, protocol: 'anthropic-messages' });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const convo: object[] = [{ role: 'user', content: 'fix' }];
    await messages(gateway.url, { messages: convo });
    for (const [i, failing] of [['a', 'b', 'c'], ['a', 'b', 'c'], ['b', 'c'], ['b', 'c'], ['c'], ['c']].entries()) {
      convo.push(toolUse(10 + i, 'npm test'), toolResult(10 + i, nodeTestOutput(failing)), toolUse(20 + i, `sed -i s/${i}/x/ calc.js`), toolResult(20 + i, ''));
      await messages(gateway.url, { messages: convo });
    }
    assert.equal(meter.ledger.stoppedBy, null);
  });

  it('holds the key: sends x-api-key itself, and passes other requests (HEAD /api/hello) on without counting them', async () => {
    upstream = await anthropicUpstream([{ text: 'ok' }]);
    gateway = await ModelGateway.start({ upstream: upstream.url, protocol: 'anthropic-messages', apiKey: 'sk-ant-real-0123456789' });
    const meter = gateway.openAttempt({ maxRequests: 5, cwd: process.cwd() });
    const hello = await fetch(`${gateway.url}/api/hello`, { method: 'HEAD' });
    assert.equal(hello.status, 200);
    await messages(gateway.url, { messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(upstream.requests[1]!.headers['x-api-key'], 'sk-ant-real-0123456789');
    assert.equal(meter.ledger.requests, 1);
    assert.equal(meter.ledger.lastText, 'ok');
  });
});

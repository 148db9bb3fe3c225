// The model gateway an agent CLI is pointed at: a real loopback server in front of a real (scripted) upstream.
import { strict as assert } from 'assert';
import * as http from 'http';
import { ModelGateway } from '../../../src/actors/gateway/modelGateway';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { readSse } from '../../../src/actors/sse';
import { nodeTestOutput, qwenEditResult, qwenShellResult } from '../support/agentToolOutput';

interface Chat { status: number; json?: any; events?: any[] }

async function chat(url: string, body: object, headers: Record<string, string> = {}): Promise<Chat> {
  const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const events: any[] = [];
    await readSse(res.body!, (data) => {
      if (data !== '[DONE]') events.push(JSON.parse(data));
    });
    return { status: res.status, events };
  }
  return { status: res.status, json: await res.json() };
}

const toolCall = (name: string, args: string) => ({ role: 'assistant', content: null, tool_calls: [{ id: `call_${Math.random()}`, type: 'function', function: { name, arguments: args } }] });
const toolResult = (text: string) => ({ role: 'tool', tool_call_id: `call_${Math.random()}`, content: text });

describe('model gateway', () => {
  let upstream: FakeOpenAIServer;
  let gateway: ModelGateway;

  beforeEach(async () => {
    upstream = await startFakeOpenAIServer();
  });
  afterEach(async () => {
    await gateway?.close();
    await upstream.close();
  });

  it('forwards a whole answer and counts the exact usage the upstream reported', async () => {
    upstream.push({ content: 'hello', usage: { prompt_tokens: 120, completion_tokens: 7 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 5, cwd: process.cwd() });
    const r = await chat(gateway.url, { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(r.status, 200);
    assert.equal(r.json.choices[0].message.content, 'hello');
    assert.deepEqual(meter.ledger.tokens, { prompt: 120, completion: 7, estimated: false });
    assert.equal(meter.ledger.forwarded, 1);
    assert.equal(meter.ledger.lastText, 'hello');
  });

  it('asks a stream for its usage and holds the usage chunk back from an agent that did not ask for it', async () => {
    upstream.push({ content: 'streamed answer', usage: { prompt_tokens: 50, completion_tokens: 3 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 5, cwd: process.cwd() });
    const r = await chat(gateway.url, { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(upstream.requests[0]!.body.stream_options.include_usage, true);
    assert.ok(r.events!.every((e) => e.choices.length > 0), 'no usage-only chunk reached the agent');
    assert.equal(r.events!.map((e) => e.choices[0].delta.content ?? '').join(''), 'streamed answer');
    assert.deepEqual(meter.ledger.tokens, { prompt: 50, completion: 3, estimated: false });
  });

  it('passes streamed tool calls through untouched', async () => {
    const chunks = [
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'edit', arguments: '{"file_pa' } }] }, finish_reason: null }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'th":"/a.js"}' } }] }, finish_reason: null }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } },
    ];
    upstream.push({ raw: `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`, contentType: 'text/event-stream' });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 5, cwd: process.cwd() });
    const r = await chat(gateway.url, { model: 'm', stream: true, stream_options: { include_usage: true }, tools: [{ type: 'function', function: { name: 'edit' } }], messages: [{ role: 'user', content: 'fix' }] });
    assert.deepEqual(r.events, chunks, 'every chunk arrives as the upstream sent it, the usage chunk too (the agent asked for it)');
    assert.deepEqual(upstream.requests[0]!.body.tools, [{ type: 'function', function: { name: 'edit' } }]);
    assert.equal(meter.ledger.log[0]!.answer, 'called edit');
    assert.equal(meter.ledger.tokens.prompt, 9);
  });

  it('answers past the per-attempt cap with a plain final message and never sends it on', async () => {
    for (let i = 0; i < 5; i++) upstream.push({ content: `step ${i}`, usage: { prompt_tokens: 10, completion_tokens: 1 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 2, cwd: process.cwd() });
    const messages: object[] = [{ role: 'user', content: 'go' }];
    const answers: Chat[] = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await chat(gateway.url, { model: 'm', stream: true, messages }));
      messages.push(toolCall('read_file', `{"n":${i}}`), toolResult(`content ${i}`));
    }
    assert.equal(upstream.requests.length, 2, 'the third request never reached the model');
    const last = answers[2]!.events!;
    assert.match(last.map((e) => e.choices[0]?.delta?.content ?? '').join(''), /budget of model requests is spent; stop now/);
    assert.ok(last.every((e) => !e.choices[0]?.delta?.tool_calls), 'the final message calls no tool');
    assert.equal(last.find((e) => e.choices[0]?.finish_reason)?.choices[0].finish_reason, 'stop');
    assert.deepEqual({ requests: meter.ledger.requests, forwarded: meter.ledger.forwarded, stoppedBy: meter.ledger.stoppedBy }, { requests: 3, forwarded: 2, stoppedBy: 'request-cap' });
  });

  it('ends an attempt that repeats the same call with the same result (timings aside)', async () => {
    for (let i = 0; i < 6; i++) upstream.push({ content: '', usage: { prompt_tokens: 10, completion_tokens: 1 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const messages: object[] = [{ role: 'user', content: 'fix it' }];
    const steps = [
      [toolCall('edit', '{"old":"a-b","new":"a*b"}'), toolResult('ok')],
      [toolCall('run_shell_command', '{"command":"npm test"}'), toolResult('not ok 1 adds (12ms)')],
      [toolCall('edit', '{"old":"a*b","new":"a/b"}'), toolResult('ok')],
      [toolCall('run_shell_command', '{"command":"npm test"}'), toolResult('not ok 1 adds (15ms)')],
      [toolCall('edit', '{"old":"a-b","new":"a*b"}'), toolResult('ok')],
      [toolCall('run_shell_command', '{"command":"npm test"}'), toolResult('not ok 1 adds (9ms)')],
    ];
    await chat(gateway.url, { model: 'm', messages });
    const stoppedAt: number[] = [];
    for (const [i, step] of steps.entries()) {
      messages.push(...step);
      const r = await chat(gateway.url, { model: 'm', messages });
      if (/going in circles/.test(r.json.choices[0].message.content ?? '')) stoppedAt.push(i + 1);
    }
    // The same test run after a different edit is no repeat; the same edit followed by the same failure is.
    assert.deepEqual(stoppedAt, [6]);
    assert.equal(meter.ledger.stoppedBy, 'repeated-step');
    assert.equal(upstream.requests.length, 6);
  });

  it('stops an agent whose test runs fail the same tests after each of its edits, though no two steps are alike (qwen)', async () => {
    for (let i = 0; i < 8; i++) upstream.push({ content: '', usage: { prompt_tokens: 10, completion_tokens: 1 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const stops: string[] = [];
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() }, (why) => stops.push(why));
    const messages: object[] = [{ role: 'user', content: 'fix it' }];
    const failing = ['add adds', 'mul multiplies', 'square squares'];
    const edit = (n: number) => [toolCall('edit', '{"file_path":"calc.js","old_string":"function add(a, b) {","new_string":"function add(a, b) { // checked"}'), toolResult(qwenEditResult(n))];
    const test = () => [toolCall('run_shell_command', '{"command":"npm test"}'), { ...toolResult(''), content: [{ type: 'text', text: qwenShellResult(nodeTestOutput(failing)) }] }];
    await chat(gateway.url, { model: 'm', messages });
    const answers: string[] = [];
    for (const step of [test(), edit(1), test(), edit(2), test()]) {
      messages.push(...step);
      const r = await chat(gateway.url, { model: 'm', messages });
      answers.push(r.json.choices[0].message.content || 'model');
    }
    assert.deepEqual(answers.slice(0, 4), ['model', 'model', 'model', 'model']);
    assert.match(answers[4]!, /failed as many tests as before.*Stop now/);
    assert.equal(meter.ledger.stoppedBy, 'tests-stalled');
    assert.equal(upstream.requests.length, 5, 'the request after the stalled run never reached the model');
    assert.deepEqual(stops, [], 'the agent is told, not killed: it ends its turn on the final answer');
  });

  it('never stops an agent whose test runs fail fewer tests after its edits (qwen)', async () => {
    for (let i = 0; i < 10; i++) upstream.push({ content: '', usage: { prompt_tokens: 10, completion_tokens: 1 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const messages: object[] = [{ role: 'user', content: 'fix it' }];
    const test = (failing: string[]) => [toolCall('run_shell_command', '{"command":"npm test"}'), toolResult(qwenShellResult(nodeTestOutput(failing)))];
    const edit = (n: number) => [toolCall('edit', `{"n":${n}}`), toolResult('ok')];
    await chat(gateway.url, { model: 'm', messages });
    for (const step of [test(['a', 'b', 'c']), edit(1), test(['a', 'b', 'c']), edit(2), test(['b', 'c']), edit(3), test(['b', 'c']), edit(4), test(['c'])]) {
      messages.push(...step);
      await chat(gateway.url, { model: 'm', messages });
    }
    assert.equal(meter.ledger.stoppedBy, null);
    assert.equal(meter.ledger.forwarded, 10);
  });

  it('holds the per-attempt cap while it reads the files a test run saw: a request arriving meanwhile takes the last one', async () => {
    for (let i = 0; i < 3; i++) upstream.push({ content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 1 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reading!: () => void;
    const looking = new Promise<void>((resolve) => (reading = resolve));
    // The workspace is read slowly (a big tree): the agent's side request comes in while it is.
    const workspace = async () => {
      reading();
      await released;
      return 'tree-1';
    };
    const meter = gateway.openAttempt({ maxRequests: 1, cwd: process.cwd(), workspace });
    const testRun = [toolCall('run_shell_command', '{"command":"npm test"}'), toolResult(qwenShellResult(nodeTestOutput(['add adds'])))];
    const main = chat(gateway.url, { model: 'm', messages: [{ role: 'user', content: 'fix it' }, ...testRun] });
    await looking;
    const side = await chat(gateway.url, { model: 'm', messages: [{ role: 'user', content: 'Name this conversation.' }] });
    release();
    assert.equal(side.json.choices[0].message.content, 'ok');
    assert.match((await main).json.choices[0].message.content, /budget of model requests is spent/);
    assert.equal(upstream.requests.length, 1, 'one request reached the model, as the cap allows');
    assert.deepEqual({ forwarded: meter.ledger.forwarded, stoppedBy: meter.ledger.stoppedBy }, { forwarded: 1, stoppedBy: 'request-cap' });
  });

  it("keeps an agent's connection open while the agent runs its tests (longer than Node's 5 s keep-alive)", async function () {
    this.timeout(30_000);
    upstream.push({ content: 'first' });
    upstream.push({ content: 'after the test run' });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    gateway.openAttempt({ maxRequests: 5, cwd: process.cwd() });
    // One pooled socket, as an agent's HTTP client keeps: if the gateway closed it while the agent was idle, the
    // next request would race the close and fail ("fetch failed") on a busy machine.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise<{ reused: boolean; status: number }>((resolve, reject) => {
        const req = http.request(`${gateway.url}/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ reused: req.reusedSocket, status: res.statusCode ?? 0 }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
      });
    assert.equal((await post()).status, 200);
    await new Promise((r) => setTimeout(r, 6_000)); // a short test run
    const second = await post();
    agent.destroy();
    assert.equal(second.status, 200);
    assert.ok(second.reused, 'the gateway closed the idle connection the agent meant to reuse');
  });

  it('answers a request sent again unchanged without asking the model twice', async () => {
    upstream.push({ content: 'first', usage: { prompt_tokens: 10, completion_tokens: 1 } }, { content: 'second', usage: { prompt_tokens: 10, completion_tokens: 1 } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const body = { model: 'm', messages: [{ role: 'user', content: 'same' }] };
    await chat(gateway.url, body);
    const again = await chat(gateway.url, body);
    assert.match(again.json.choices[0].message.content, /going in circles/);
    assert.equal(upstream.requests.length, 1);
  });

  it('stops the agent when the token budget is spent, and caps max_tokens to what is left before that', async () => {
    upstream.push({ content: 'a', usage: { prompt_tokens: 700, completion_tokens: 100 } }, { content: 'b' });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const stops: string[] = [];
    const meter = gateway.openAttempt({ maxRequests: 12, tokensLeft: 1000, cwd: process.cwd() }, (why) => stops.push(why));
    await chat(gateway.url, { model: 'm', max_tokens: 32000, messages: [{ role: 'user', content: 'x' }] });
    assert.ok(upstream.requests[0]!.body.max_tokens < 1000, `max_tokens sent: ${upstream.requests[0]!.body.max_tokens}`);
    const r = await chat(gateway.url, { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'y' }] });
    assert.match(r.json.choices[0].message.content, /token budget is spent/);
    assert.deepEqual(stops, ['token-budget']);
    assert.equal(upstream.requests.length, 1);
    assert.equal(meter.ledger.stoppedBy, 'token-budget');
  });

  it('passes an upstream error through with its status and Retry-After, and counts the request', async () => {
    upstream.push({ status: 429, headers: { 'retry-after': '7' } });
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const meter = gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const res = await fetch(`${gateway.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [] }) });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '7');
    assert.equal(meter.ledger.forwarded, 1);
    assert.deepEqual(meter.ledger.tokens, { prompt: 0, completion: 0, estimated: false });
  });

  it('says in one sentence when the upstream cannot be reached', async () => {
    const dead = upstream.url;
    await upstream.close();
    upstream = await startFakeOpenAIServer();
    gateway = await ModelGateway.start({ upstream: dead });
    gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    const r = await chat(gateway.url, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(r.status, 502);
    assert.match(r.json.error.message, /could not reach http:\/\/127\.0\.0\.1:\d+\/v1/);
  });

  it('sends the key it holds instead of the placeholder the agent has', async () => {
    upstream.push({ content: 'ok' });
    gateway = await ModelGateway.start({ upstream: upstream.url, apiKey: 'sk-real-key-123456' });
    gateway.openAttempt({ maxRequests: 12, cwd: process.cwd() });
    await chat(gateway.url, { model: 'm', messages: [{ role: 'user', content: 'x' }] }, { authorization: 'Bearer placeholder' });
    assert.equal(upstream.requests[0]!.headers.authorization, 'Bearer sk-real-key-123456');
  });

  it('answers requests between attempts itself (a process the agent left behind costs nothing)', async () => {
    gateway = await ModelGateway.start({ upstream: upstream.url });
    const r = await chat(gateway.url, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
    assert.match(r.json.choices[0].message.content, /attempt is over/);
    assert.equal(upstream.requests.length, 0);
  });
});

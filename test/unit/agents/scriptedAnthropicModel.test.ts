// The scripted Anthropic model speaks the Messages API the way Claude Code reads it: named SSE events, a tool_use
// block whose input arrives in pieces, the stop reason and output tokens in message_delta; or one JSON message.
// Side requests get "Done."; HEAD/GET probes get 200 and are counted apart.
import * as assert from 'node:assert/strict';
import { createParser } from 'eventsource-parser';
import { edit, say, scripted } from '../../support/agentSteps';
import { startScriptedAnthropicModel } from '../../support/scriptedAnthropicModel';
import type { AnthropicTool, ScriptedAnthropicModel } from '../../support/scriptedAnthropicModel';

const EDIT_TOOL: AnthropicTool = {
  name: 'Edit',
  input_schema: { properties: { file_path: {}, old_string: {}, new_string: {}, replace_all: {} }, required: ['file_path', 'old_string', 'new_string'] },
};
const SYSTEM = [
  { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.330;' },
  { type: 'text', text: "You are a Claude agent, built on Anthropic's Claude Agent SDK." },
];
const USER = { role: 'user', content: [{ type: 'text', text: 'Fix the tests.' }] };

async function post(model: ScriptedAnthropicModel, body: unknown): Promise<Response> {
  return fetch(`${model.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function sseEvents(res: Response): Promise<Array<{ event?: string; data: any }>> {
  const events: Array<{ event?: string; data: any }> = [];
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: JSON.parse(e.data) }) });
  parser.feed(await res.text());
  return events;
}

describe('scripted Anthropic model', () => {
  let model: ScriptedAnthropicModel;
  const scenario = scripted('t', [edit('calc.js', 'a - b', 'a + b', { all: true }), say('Fixed.')]);
  beforeEach(async () => (model = await startScriptedAnthropicModel({ scenario, workspace: '/ws' })));
  afterEach(() => model.close());

  it('streams a tool_use of the advertised tool, its input in pieces, then stop reason tool_use with the usage', async () => {
    const res = await post(model, { model: 'claude-x', stream: true, system: SYSTEM, tools: [EDIT_TOOL], messages: [USER] });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const events = await sseEvents(res);
    assert.deepEqual(events.map((e) => e.event), [
      'message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    assert.ok(events.every((e) => e.event === e.data.type));
    assert.equal(events[1]!.data.content_block.type, 'tool_use');
    assert.equal(events[1]!.data.content_block.name, 'Edit');
    const pieces = events.filter((e) => e.data.delta?.type === 'input_json_delta').map((e) => e.data.delta.partial_json);
    assert.deepEqual(JSON.parse(pieces.join('')), { file_path: '/ws/calc.js', old_string: 'a - b', new_string: 'a + b', replace_all: true });
    const start = events[0]!.data.message.usage;
    const end = events.at(-2)!.data;
    assert.equal(end.delta.stop_reason, 'tool_use');
    assert.deepEqual([model.inputTokens, model.outputTokens], [start.input_tokens, end.usage.output_tokens]);
    assert.ok(start.input_tokens > 0 && end.usage.output_tokens > 0);
  });

  it('answers the next turn (one assistant message in) with one JSON message when not streaming', async () => {
    const assistant = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Edit', input: {} }] };
    const toolResult = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] };
    const body = await (await post(model, { stream: false, system: SYSTEM, tools: [EDIT_TOOL], messages: [USER, assistant, toolResult] })).json();
    assert.equal(body.type, 'message');
    assert.deepEqual(body.content, [{ type: 'text', text: 'Fixed.' }]);
    assert.equal(body.stop_reason, 'end_turn');
  });

  it('answers a request without Claude Code\'s system prompt or tools "Done." and counts it and HEAD probes apart', async () => {
    assert.equal((await fetch(`${model.url}/api/hello`, { method: 'HEAD' })).status, 200);
    const body = await (await post(model, { system: 'Summarize this conversation in a title.', messages: [USER] })).json();
    assert.deepEqual(body.content, [{ type: 'text', text: 'Done.' }]);
    assert.deepEqual([model.sideRequests, model.mainRequests, model.conversations, model.probes], [1, 0, 0, ['HEAD /api/hello']]);
  });

  it('fails the next main requests with the statuses asked for, as Anthropic error bodies, then answers again', async () => {
    model.failNext(500, 429);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(model, { system: SYSTEM, tools: [EDIT_TOOL], messages: [USER] });
      answers.push([res.status, (await res.json()).type]);
    }
    assert.deepEqual(answers, [[500, 'error'], [429, 'error'], [200, 'message']]);
  });
});

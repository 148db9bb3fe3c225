// The scripted agent model speaks Chat Completions the way agents read it: streamed tool calls whose arguments
// arrive in pieces, a finish reason, a usage chunk, [DONE]; or one JSON answer. Side requests get "Done.".
import * as assert from 'node:assert/strict';
import { createParser } from 'eventsource-parser';
import { edit, say, scripted } from '../../support/agentSteps';
import type { ToolSpec } from '../../support/agentSteps';
import { startScriptedAgentModel } from '../../support/scriptedAgentModel';
import type { ScriptedAgentModel } from '../../support/scriptedAgentModel';

const EDIT_TOOL: ToolSpec = {
  type: 'function',
  function: { name: 'edit', parameters: { properties: { file_path: {}, old_string: {}, new_string: {} }, required: ['file_path', 'old_string', 'new_string'] } },
};
const MAIN = { role: 'system', content: 'You are Qwen Code, a non-interactive CLI agent.' };
const USER = { role: 'user', content: [{ type: 'text', text: 'Fix the tests.' }] };

async function post(model: ScriptedAgentModel, body: unknown): Promise<Response> {
  return fetch(`${model.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function sseData(res: Response): Promise<string[]> {
  const data: string[] = [];
  const parser = createParser({ onEvent: (e) => data.push(e.data) });
  parser.feed(await res.text());
  return data;
}

describe('scripted agent model', () => {
  let model: ScriptedAgentModel;
  const scenario = scripted('t', [edit('calc.js', 'a - b', 'a + b'), say('Fixed.')]);
  beforeEach(async () => (model = await startScriptedAgentModel({ scenario, workspace: '/ws' })));
  afterEach(() => model.close());

  it('streams a tool call of the advertised tool with its arguments in pieces, then the finish, the usage and [DONE]', async () => {
    const res = await post(model, { model: 'scripted', stream: true, stream_options: { include_usage: true }, tools: [EDIT_TOOL], messages: [MAIN, USER] });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const data = await sseData(res);
    assert.equal(data.at(-1), '[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    const argPieces = chunks.flatMap((c) => c.choices.flatMap((ch: any) => ch.delta?.tool_calls ?? [])).map((t: any) => t.function.arguments).filter(Boolean);
    assert.ok(argPieces.length >= 2);
    assert.deepEqual(JSON.parse(argPieces.join('')), { file_path: '/ws/calc.js', old_string: 'a - b', new_string: 'a + b' });
    assert.equal(chunks.find((c) => c.choices[0]?.delta?.tool_calls)?.choices[0].delta.tool_calls[0].function.name, 'edit');
    assert.equal(chunks.at(-2).choices[0].finish_reason, 'tool_calls');
    const usage = chunks.at(-1);
    assert.deepEqual(usage.choices, []);
    assert.equal(usage.usage.total_tokens, usage.usage.prompt_tokens + usage.usage.completion_tokens);
    assert.equal(model.promptTokens, usage.usage.prompt_tokens);
  });

  it('answers the next turn (one assistant message in) with JSON when not streaming', async () => {
    const assistant = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'edit', arguments: '{}' } }] };
    const res = await post(model, { stream: false, tools: [EDIT_TOOL], messages: [MAIN, USER, assistant, { role: 'tool', tool_call_id: 'c1', content: 'ok' }] });
    const body = await res.json();
    assert.equal(body.choices[0].message.content, 'Fixed.');
    assert.equal(body.choices[0].finish_reason, 'stop');
  });

  it('answers a side request (another system prompt) "Done." and counts it apart', async () => {
    const side = { role: 'system', content: 'You are now acting as the managed memory extraction subagent.' };
    const body = await (await post(model, { tools: [EDIT_TOOL], messages: [side, USER] })).json();
    assert.equal(body.choices[0].message.content, 'Done.');
    assert.deepEqual([model.sideRequests, model.mainRequests, model.conversations], [1, 0, 0]);
  });

  it('fails the next main requests with the statuses asked for, then answers again', async () => {
    model.failNext(500, 429);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(model, { tools: [EDIT_TOOL], messages: [MAIN, USER] })).status);
    assert.deepEqual(statuses, [500, 429, 200]);
  });
});

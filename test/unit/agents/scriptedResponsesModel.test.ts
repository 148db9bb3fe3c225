// The scripted Responses model speaks the API the way Codex reads it: named SSE events, a function_call item whose
// arguments arrive in pieces, the usage in response.completed; or one JSON response. Edits for an agent whose only
// tool is a shell become apply_patch patches of whole lines. Side requests get "Done."; GET probes are counted apart.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createParser } from 'eventsource-parser';
import { edit, say, scripted } from '../../support/agentSteps';
import { CODEX_MAIN_PROMPT_START, startScriptedResponsesModel } from '../../support/scriptedResponsesModel';
import type { ScriptedResponsesModel } from '../../support/scriptedResponsesModel';

const EXEC_TOOL = { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: {}, workdir: {} }, required: ['cmd'] } };
const PROMPT = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: `${CODEX_MAIN_PROMPT_START}, a terminal-based coding assistant.` }] };
const USER = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the tests.' }] };

async function post(model: ScriptedResponsesModel, body: unknown): Promise<Response> {
  return fetch(`${model.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function sseEvents(res: Response): Promise<Array<{ event?: string; data: any }>> {
  const events: Array<{ event?: string; data: any }> = [];
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: JSON.parse(e.data) }) });
  parser.feed(await res.text());
  return events;
}

describe('scripted Responses model', () => {
  let model: ScriptedResponsesModel;
  let workspace: string;
  const scenario = scripted('t', [edit('calc.js', 'a - b', 'a + b', { all: true }), say('Fixed.')]);
  beforeEach(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-responses-'));
    fs.writeFileSync(path.join(workspace, 'calc.js'), 'function add(a, b) {\n  return a - b;\n}\nconst d = (a, b) => a - b;\n');
    model = await startScriptedResponsesModel({ scenario, workspace });
  });
  afterEach(async () => {
    await model.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('streams a function_call of the shell tool with an apply_patch of whole lines, its arguments in pieces, then the usage', async () => {
    const res = await post(model, { model: 'scripted', stream: true, input: [PROMPT, USER], tools: [EXEC_TOOL] });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const events = await sseEvents(res);
    assert.deepEqual(events.map((e) => e.event), [
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.function_call_arguments.delta',
      'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done', 'response.completed',
    ]);
    assert.ok(events.every((e) => e.event === e.data.type));
    const item = events.at(-2)!.data.item;
    assert.equal(item.type, 'function_call');
    assert.equal(item.name, 'exec_command');
    const pieces = events.filter((e) => e.event === 'response.function_call_arguments.delta').map((e) => e.data.delta);
    assert.equal(pieces.join(''), item.arguments);
    assert.equal(JSON.parse(item.arguments).cmd, [
      "apply_patch <<'GREENLOOP_PATCH'", '*** Begin Patch', '*** Update File: calc.js',
      '@@', '-  return a - b;', '+  return a + b;', '@@', '-const d = (a, b) => a - b;', '+const d = (a, b) => a + b;',
      '*** End Patch', 'GREENLOOP_PATCH',
    ].join('\n'));
    const usage = events.at(-1)!.data.response.usage;
    assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);
    assert.deepEqual([model.inputTokens, model.outputTokens], [usage.input_tokens, usage.output_tokens]);
  });

  it('answers the next turn (one function_call in) with one JSON response holding the final message', async () => {
    const call = { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{}' };
    const output = { type: 'function_call_output', call_id: 'c1', output: 'ok' };
    const body = await (await post(model, { stream: false, input: [PROMPT, USER, call, output], tools: [EXEC_TOOL] })).json();
    assert.equal(body.object, 'response');
    assert.equal(body.status, 'completed');
    assert.deepEqual(body.output[0].content, [{ type: 'output_text', text: 'Fixed.', annotations: [] }]);
  });

  it('answers a request without Codex\'s prompt or tools "Done." and counts it and GET probes apart', async () => {
    assert.equal((await fetch(`${model.url}/models`)).status, 200);
    const body = await (await post(model, { instructions: 'Write a title for this conversation.', input: [USER] })).json();
    assert.equal(body.output[0].content[0].text, 'Done.');
    assert.deepEqual([model.sideRequests, model.mainRequests, model.conversations, model.probes], [1, 0, 0, ['GET /v1/models']]);
  });

  it('fails the next main requests with the statuses asked for, as OpenAI error bodies, then answers again', async () => {
    model.failNext(500, 429);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(model, { input: [PROMPT, USER], tools: [EXEC_TOOL] });
      const body = await res.json();
      answers.push([res.status, body.error ? 'error' : body.object]);
    }
    assert.deepEqual(answers, [[500, 'error'], [429, 'error'], [200, 'response']]);
  });
});

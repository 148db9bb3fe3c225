// A real loopback HTTP server that plays the model behind a real agent CLI (qwen, say): it speaks OpenAI Chat
// Completions with function tools, streamed (SSE chunks with tool_calls deltas and a usage chunk) or not, and
// answers each request with what its scenario decides from the conversation so far. Agents send side requests of
// their own (qwen's memory extraction after a turn); those get "Done." and are counted apart.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MissingToolError } from './agentSteps';
import type { AgentAction, ChatMessage, Scenario, ScenarioContext, ToolSpec } from './agentSteps';

/** qwen's main system prompt starts so; its subagents' prompts ("You are now acting as ...") do not. */
export const QWEN_MAIN_PROMPT_START = 'You are Qwen Code';

export interface Usage { prompt_tokens: number; completion_tokens: number; total_tokens: number }

export interface AgentModelRequest {
  /** 1-based arrival number. */
  n: number;
  body: any;
  /** False for side requests (not the agent's main conversation), which are answered "Done.". */
  main: boolean;
  /** HTTP status sent instead of an answer (see failNext), or undefined when answered. */
  failedWith?: number;
  answer?: AgentAction;
  usage?: Usage;
}

export interface ScriptedAgentModelOptions {
  scenario: Scenario;
  /** The agent's workspace (absolute); can be set later, before the agent's first request. */
  workspace?: string;
  /** Tells the agent's main conversation from its side requests; default: qwen's main system prompt. */
  isMain?: (messages: ChatMessage[]) => boolean;
  log?: (line: string) => void;
  /** Called as each request arrives, after it is recorded (e.g. to stop the agent at a request cap). */
  onRequest?: (request: AgentModelRequest) => void;
}

export interface ScriptedAgentModel {
  /** Base URL including /v1, for OPENAI_BASE_URL. */
  readonly url: string;
  scenario: Scenario;
  workspace: string;
  /** Every chat completion request in arrival order, with what was answered. */
  readonly requests: AgentModelRequest[];
  readonly mainRequests: number;
  readonly sideRequests: number;
  /** Main requests that opened a conversation (one per agent run). */
  readonly conversations: number;
  /** Sums of the usage reported to the agent, over all requests. */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Steps the scenario could not turn into a tool call (e.g. the agent offered no edit tool). */
  readonly errors: string[];
  /** Answers the next main requests with these HTTP statuses instead (e.g. 500, 429): to watch an agent retry. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

export function mainPromptIsQwen(messages: ChatMessage[]): boolean {
  const system = messages.find((m) => m.role === 'system');
  return textOf(system?.content).startsWith(QWEN_MAIN_PROMPT_START);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** A deterministic stand-in for a tokenizer: about four characters a token. */
export const estimateTokens = (value: unknown): number => Math.ceil(JSON.stringify(value ?? '').length / 4);

export async function startScriptedAgentModel(options: ScriptedAgentModelOptions): Promise<ScriptedAgentModel> {
  const isMain = options.isMain ?? mainPromptIsQwen;
  const requests: AgentModelRequest[] = [];
  const errors: string[] = [];
  const failures: number[] = [];
  let callCounter = 0;
  const counts = { main: 0, side: 0, conversations: 0, prompt: 0, completion: 0 };

  const model: ScriptedAgentModel = {
    url: '',
    scenario: options.scenario,
    workspace: options.workspace ?? '',
    requests,
    get mainRequests() { return counts.main; },
    get sideRequests() { return counts.side; },
    get conversations() { return counts.conversations; },
    get promptTokens() { return counts.prompt; },
    get completionTokens() { return counts.completion; },
    errors,
    failNext: (...statuses) => void failures.push(...statuses),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };

  function decide(messages: ChatMessage[], tools: ToolSpec[]): AgentAction {
    const turn = messages.filter((m) => m.role === 'assistant').length;
    if (turn === 0) {
      counts.conversations++;
      model.scenario.onNewConversation?.();
    }
    const ctx: ScenarioContext = { workspace: model.workspace, messages, tools, turn };
    try {
      return model.scenario.next(ctx);
    } catch (err) {
      if (!(err instanceof MissingToolError)) throw err;
      // Ends the agent's turn cleanly; the test reads the reason from `errors`.
      errors.push(err.message);
      return { text: `Scripted model error: ${err.message}` };
    }
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string): void {
    const url = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'GET' && url.endsWith('/models')) return sendJson(res, 200, { object: 'list', data: [{ id: 'scripted', object: 'model' }] });
    if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
      return sendJson(res, 404, { error: { message: `Unknown endpoint ${req.method} ${url}.`, type: 'invalid_request_error' } });
    }
    let body: any;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return sendJson(res, 400, { error: { message: 'The request body is not JSON.', type: 'invalid_request_error' } });
    }
    const messages: ChatMessage[] = Array.isArray(body?.messages) ? body.messages : [];
    const tools: ToolSpec[] = Array.isArray(body?.tools) ? body.tools : [];
    const main = isMain(messages);
    const record: AgentModelRequest = { n: requests.length + 1, body, main };
    requests.push(record);
    if (main) counts.main++;
    else counts.side++;
    options.onRequest?.(record);

    const failure = main ? failures.shift() : undefined;
    if (failure !== undefined) {
      record.failedWith = failure;
      options.log?.(`request ${record.n}: HTTP ${failure}`);
      return sendJson(res, failure, { error: { message: `Scripted failure ${failure}.`, type: 'server_error' } });
    }
    const answer = main ? decide(messages, tools) : { text: 'Done.' };
    const usage = usageFor(messages, answer);
    record.answer = answer;
    record.usage = usage;
    counts.prompt += usage.prompt_tokens;
    counts.completion += usage.completion_tokens;
    options.log?.(`request ${record.n}${main ? '' : ' (side)'}: ${'tool' in answer ? `${answer.tool} ${JSON.stringify(answer.args).slice(0, 120)}` : JSON.stringify(answer.text)}`);
    const modelName = typeof body.model === 'string' ? body.model : 'scripted';
    const callId = `call_scripted_${++callCounter}`;
    if (body.stream === true) return streamAnswer(res, answer, usage, modelName, callId, body.stream_options?.include_usage === true);
    sendJson(res, 200, completion(answer, usage, modelName, callId));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (err) {
        sendJson(res, 500, { error: { message: `The scripted model failed: ${(err as Error).message}`, type: 'server_error' } });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  (model as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}

function usageFor(messages: ChatMessage[], answer: AgentAction): Usage {
  const prompt_tokens = estimateTokens(messages);
  const completion_tokens = estimateTokens(answer);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function toolCallOf(answer: { tool: string; args: Record<string, unknown> }, callId: string) {
  return { id: callId, type: 'function', function: { name: answer.tool, arguments: JSON.stringify(answer.args) } };
}

function completion(answer: AgentAction, usage: Usage, model: string, callId: string): Record<string, unknown> {
  const message = 'tool' in answer
    ? { role: 'assistant', content: null, tool_calls: [toolCallOf(answer, callId)] }
    : { role: 'assistant', content: answer.text };
  const finish = 'tool' in answer ? 'tool_calls' : 'stop';
  return { id: `chatcmpl-${callId}`, object: 'chat.completion', created: now(), model, choices: [{ index: 0, message, finish_reason: finish }], usage };
}

const now = () => Math.floor(Date.now() / 1000);

function streamAnswer(res: http.ServerResponse, answer: AgentAction, usage: Usage, model: string, callId: string, includeUsage: boolean): void {
  const id = `chatcmpl-${callId}`;
  const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: now(), model, choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null) => event([{ index: 0, delta: d, finish_reason: finish }]);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const events: string[] = [];
  if ('tool' in answer) {
    const call = toolCallOf(answer, callId);
    // Arguments arrive in pieces, as real models stream them: the agent must join them before parsing.
    events.push(delta({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of halves(call.function.arguments)) events.push(delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    events.push(delta({}, 'tool_calls'));
  } else {
    events.push(delta({ role: 'assistant', content: '' }));
    for (const piece of halves(answer.text)) events.push(delta({ content: piece }));
    events.push(delta({}, 'stop'));
  }
  if (includeUsage) events.push(event([], { usage }));
  events.push('data: [DONE]\n\n');
  for (const e of events) res.write(e);
  res.end();
}

/** Two pieces (one when too short to split). */
function halves(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

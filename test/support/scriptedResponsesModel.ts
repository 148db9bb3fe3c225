// A real loopback HTTP server that plays the model behind the Codex CLI: it speaks the OpenAI Responses API as Codex
// reads it — POST /v1/responses with the whole conversation as `input` items (Codex sends `store: false`, so never
// a previous_response_id), answered as streamed SSE with named events (response.created, output_item.added, the
// text or arguments deltas, output_item.done, response.completed with the usage) or one JSON response — and answers
// each request with what its scenario decides, through the tools the agent advertised. Requests that are not the
// agent's main conversation get "Done." and are counted apart; so are GET probes (e.g. /v1/models).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MissingToolError } from './agentSteps';
import type { AgentAction, ChatMessage, Scenario, ScenarioContext, ToolSpec } from './agentSteps';
import { estimateTokens } from './scriptedAgentModel';

/** Codex's main prompt (its first developer message) starts so. */
export const CODEX_MAIN_PROMPT_START = 'You are a coding agent running in the Codex CLI';

export interface ResponsesUsage { input_tokens: number; output_tokens: number; total_tokens: number }

export interface ResponsesModelRequest {
  /** 1-based arrival number, over POSTs to /responses (and /responses/compact) only. */
  n: number;
  path: string;
  body: any;
  headers: http.IncomingHttpHeaders;
  /** False for side requests (not the agent's main conversation), which are answered "Done.". */
  main: boolean;
  /** HTTP status sent instead of an answer (see failNext), or undefined when answered. */
  failedWith?: number;
  answer?: AgentAction;
  usage?: ResponsesUsage;
}

export interface ScriptedResponsesModelOptions {
  scenario: Scenario;
  /** The agent's workspace (absolute); can be set later, before the agent's first request. */
  workspace?: string;
  /** Tells the agent's main conversation from its side requests; default: Codex's main prompt and tools. */
  isMain?: (body: any) => boolean;
  log?: (line: string) => void;
  /** Called as each request arrives, after it is recorded (e.g. to stop the agent at a request cap). */
  onRequest?: (request: ResponsesModelRequest) => void;
}

export interface ScriptedResponsesModel {
  /** Base URL including /v1, for a Codex model provider's base_url. */
  readonly url: string;
  scenario: Scenario;
  workspace: string;
  /** Every Responses request in arrival order, with what was answered. */
  readonly requests: ResponsesModelRequest[];
  readonly mainRequests: number;
  readonly sideRequests: number;
  /** Requests to other paths or methods (e.g. GET /v1/models), answered 200: "METHOD /path" each. */
  readonly probes: string[];
  /** Main requests that opened a conversation (one per agent run). */
  readonly conversations: number;
  /** Sums of the usage reported to the agent, over all Responses requests. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Steps the scenario could not turn into a tool call (e.g. the agent offered no shell). */
  readonly errors: string[];
  /** Answers the next main requests with these HTTP statuses instead (e.g. 500, 429): to watch an agent retry. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** The main conversation: Codex's own prompt (in `instructions` or its first developer message) and tools. */
export function mainPromptIsCodex(body: any): boolean {
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  const prompts = [textOf(body?.instructions), ...input.filter((i) => i?.role === 'developer' || i?.role === 'system').map((i) => textOf(i.content))];
  const codexPrompt = prompts.some((t) => t.trimStart().startsWith(CODEX_MAIN_PROMPT_START));
  return codexPrompt && Array.isArray(body?.tools) && body.tools.length > 0;
}

/** Function tools in the step abstraction's shape; namespaces (sub-agents) and hosted tools (web_search) are not used. */
function toolSpecsOf(tools: unknown): ToolSpec[] {
  if (!Array.isArray(tools)) return [];
  return tools
    .filter((t) => t?.type === 'function' && typeof t.name === 'string')
    .map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** Input items as chat messages: what the scenario reads (turn counting and the conversation so far). */
function messagesOf(input: unknown): ChatMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [];
  const messages: ChatMessage[] = [];
  for (const item of input) {
    if (item?.type === 'message' || (item?.role && !item.type)) messages.push({ role: item.role, content: item.content });
    else if (item?.type === 'function_call' || item?.type === 'custom_tool_call') {
      const args = item.type === 'function_call' ? item.arguments : JSON.stringify({ input: item.input });
      messages.push({ role: 'assistant', tool_calls: [{ id: item.call_id, type: 'function', function: { name: item.name, arguments: args } }] });
    } else if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
    }
  }
  return messages;
}

const ERROR_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'invalid_request_error', 429: 'rate_limit_exceeded' };

export async function startScriptedResponsesModel(options: ScriptedResponsesModelOptions): Promise<ScriptedResponsesModel> {
  const isMain = options.isMain ?? mainPromptIsCodex;
  const requests: ResponsesModelRequest[] = [];
  const probes: string[] = [];
  const errors: string[] = [];
  const failures: number[] = [];
  let idCounter = 0;
  const counts = { main: 0, side: 0, conversations: 0, input: 0, output: 0 };

  const model: ScriptedResponsesModel = {
    url: '',
    scenario: options.scenario,
    workspace: options.workspace ?? '',
    requests,
    probes,
    get mainRequests() { return counts.main; },
    get sideRequests() { return counts.side; },
    get conversations() { return counts.conversations; },
    get inputTokens() { return counts.input; },
    get outputTokens() { return counts.output; },
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
    if (req.method !== 'POST') {
      probes.push(`${req.method} ${url}`);
      // An empty model list: Codex then keeps its fallback metadata for the model it was given.
      return sendJson(res, 200, url.endsWith('/models') ? { object: 'list', data: [], models: [] } : {});
    }
    if (!/\/v1\/responses(\/compact)?$/.test(url)) return sendError(res, 404, `Unknown endpoint ${req.method} ${url}.`);
    let body: any;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return sendError(res, 400, 'The request body is not JSON.');
    }
    const main = !url.endsWith('/compact') && isMain(body);
    const record: ResponsesModelRequest = { n: requests.length + 1, path: url, body, headers: req.headers, main };
    requests.push(record);
    if (main) counts.main++;
    else counts.side++;
    options.onRequest?.(record);

    const failure = main ? failures.shift() : undefined;
    if (failure !== undefined) {
      record.failedWith = failure;
      options.log?.(`request ${record.n}: HTTP ${failure}`);
      return sendError(res, failure, `Scripted failure ${failure}.`);
    }
    const answer = main ? decide(messagesOf(body.input), toolSpecsOf(body.tools)) : { text: 'Done.' };
    const input = estimateTokens([body.instructions, body.input]);
    const output = estimateTokens(answer);
    const usage: ResponsesUsage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
    record.answer = answer;
    record.usage = usage;
    counts.input += usage.input_tokens;
    counts.output += usage.output_tokens;
    options.log?.(`request ${record.n}${main ? '' : ' (side)'}: ${'tool' in answer ? `${answer.tool} ${JSON.stringify(answer.args).slice(0, 120)}` : JSON.stringify(answer.text)}`);
    const id = ++idCounter;
    const ids: ResponseIds = { id: `resp_scripted_${id}`, itemId: `item_scripted_${id}`, callId: `call_scripted_${id}`, model: typeof body.model === 'string' ? body.model : 'scripted' };
    if (body.stream === true) return streamAnswer(res, answer, usage, ids);
    sendJson(res, 200, responseOf(answer, usage, ids, 'completed'));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (err) {
        sendError(res, 500, `The scripted model failed: ${(err as Error).message}`);
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

interface ResponseIds { id: string; itemId: string; callId: string; model: string }

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: http.ServerResponse, status: number, message: string): void {
  const type = ERROR_TYPES[status] ?? (status === 404 ? 'not_found_error' : 'server_error');
  sendJson(res, status, { error: { message, type, param: null, code: type } });
}

function itemOf(answer: AgentAction, ids: ResponseIds): Record<string, unknown> {
  return 'tool' in answer
    ? { type: 'function_call', id: ids.itemId, call_id: ids.callId, name: answer.tool, arguments: JSON.stringify(answer.args), status: 'completed' }
    : { type: 'message', id: ids.itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
}

function responseOf(answer: AgentAction | undefined, usage: ResponsesUsage | null, ids: ResponseIds, status: string): Record<string, unknown> {
  const detailed = usage && { ...usage, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  return { id: ids.id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: ids.model, output: answer ? [itemOf(answer, ids)] : [], usage: detailed };
}

function streamAnswer(res: http.ServerResponse, answer: AgentAction, usage: ResponsesUsage, ids: ResponseIds): void {
  const events: string[] = [];
  let seq = 0;
  const event = (data: { type: string } & Record<string, unknown>) => events.push(`event: ${data.type}\ndata: ${JSON.stringify({ ...data, sequence_number: seq++ })}\n\n`);
  const item = itemOf(answer, ids);
  const at = { output_index: 0, item_id: ids.itemId };
  event({ type: 'response.created', response: responseOf(undefined, null, ids, 'in_progress') });
  event({ type: 'response.in_progress', response: responseOf(undefined, null, ids, 'in_progress') });
  if ('tool' in answer) {
    event({ type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
    // The arguments arrive in pieces, as real models stream them: the agent must join them (or read the item at done).
    for (const piece of halves(item.arguments as string)) event({ type: 'response.function_call_arguments.delta', ...at, delta: piece });
    event({ type: 'response.function_call_arguments.done', ...at, arguments: item.arguments });
  } else {
    event({ type: 'response.output_item.added', output_index: 0, item: { ...item, content: [], status: 'in_progress' } });
    event({ type: 'response.content_part.added', ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const piece of halves(answer.text)) event({ type: 'response.output_text.delta', ...at, content_index: 0, delta: piece });
    event({ type: 'response.output_text.done', ...at, content_index: 0, text: answer.text });
    event({ type: 'response.content_part.done', ...at, content_index: 0, part: { type: 'output_text', text: answer.text, annotations: [] } });
  }
  event({ type: 'response.output_item.done', output_index: 0, item });
  event({ type: 'response.completed', response: responseOf(answer, usage, ids, 'completed') });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) res.write(e);
  res.end();
}

/** Two pieces (one when too short to split). */
function halves(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

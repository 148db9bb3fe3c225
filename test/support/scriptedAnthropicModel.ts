// A real loopback HTTP server that plays the model behind Claude Code: it speaks the Anthropic Messages API as
// Claude Code reads it — streamed SSE with named events (message_start, content_block_start/delta/stop,
// message_delta with the stop reason and output tokens, message_stop) or one JSON message — and answers each request
// with what its scenario decides from the conversation so far, through the tools the agent advertised. Requests that
// are not the agent's main conversation get "Done." and are counted apart; so are HEAD/GET probes (e.g. /api/hello).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MissingToolError } from './agentSteps';
import type { AgentAction, ChatMessage, Scenario, ScenarioContext, ToolSpec } from './agentSteps';
import { estimateTokens } from './scriptedAgentModel';

/** An Anthropic tool as Claude Code advertises it in a request's `tools`. */
export interface AnthropicTool { name: string; description?: string; input_schema?: { properties?: Record<string, unknown>; required?: string[] } }

export interface AnthropicUsage { input_tokens: number; output_tokens: number }

/** Claude Code's main system prompt in print mode (-p) starts so; interactive mode says "You are Claude Code". */
export const CLAUDE_MAIN_PROMPT_STARTS = ["You are a Claude agent, built on Anthropic's Claude Agent SDK", 'You are Claude Code'];

export interface AnthropicModelRequest {
  /** 1-based arrival number, over Messages requests only. */
  n: number;
  body: any;
  headers: http.IncomingHttpHeaders;
  /** False for side requests (not the agent's main conversation), which are answered "Done.". */
  main: boolean;
  /** HTTP status sent instead of an answer (see failNext), or undefined when answered. */
  failedWith?: number;
  answer?: AgentAction;
  usage?: AnthropicUsage;
}

export interface ScriptedAnthropicModelOptions {
  scenario: Scenario;
  /** The agent's workspace (absolute); can be set later, before the agent's first request. */
  workspace?: string;
  /** Tells the agent's main conversation from its side requests; default: Claude Code's main system prompt and tools. */
  isMain?: (body: any) => boolean;
  log?: (line: string) => void;
  /** Called as each Messages request arrives, after it is recorded (e.g. to stop the agent at a request cap). */
  onRequest?: (request: AnthropicModelRequest) => void;
}

export interface ScriptedAnthropicModel {
  /** Base URL without /v1, for ANTHROPIC_BASE_URL. */
  readonly url: string;
  scenario: Scenario;
  workspace: string;
  /** Every Messages request in arrival order, with what was answered. */
  readonly requests: AnthropicModelRequest[];
  readonly mainRequests: number;
  readonly sideRequests: number;
  /** Requests to other paths (e.g. HEAD /api/hello), answered 200 with nothing: "METHOD /path" each. */
  readonly probes: string[];
  /** Main requests that opened a conversation (one per agent run). */
  readonly conversations: number;
  /** Sums of the usage reported to the agent, over all Messages requests. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Steps the scenario could not turn into a tool call (e.g. the agent offered no edit tool). */
  readonly errors: string[];
  /** Answers the next main requests with these HTTP statuses instead (e.g. 500, 429): to watch an agent retry. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (Array.isArray(system)) return system.map((b) => (typeof b?.text === 'string' ? b.text : '')).join('\n');
  return '';
}

/** The main conversation: Claude Code's own system prompt (one of its blocks, after the billing header) and tools. */
export function mainPromptIsClaude(body: any): boolean {
  const blocks: string[] = Array.isArray(body?.system) ? body.system.map((b: any) => systemText([b])) : [systemText(body?.system)];
  const claudePrompt = blocks.some((t) => CLAUDE_MAIN_PROMPT_STARTS.some((s) => t.trimStart().startsWith(s)));
  return claudePrompt && Array.isArray(body?.tools) && body.tools.length > 0;
}

/** The step abstraction reads OpenAI-shaped tools; Claude's `input_schema` is the same JSON schema under another name. */
const asToolSpec = (t: AnthropicTool): ToolSpec => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } });

const ERROR_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 429: 'rate_limit_error', 529: 'overloaded_error' };

export async function startScriptedAnthropicModel(options: ScriptedAnthropicModelOptions): Promise<ScriptedAnthropicModel> {
  const isMain = options.isMain ?? mainPromptIsClaude;
  const requests: AnthropicModelRequest[] = [];
  const probes: string[] = [];
  const errors: string[] = [];
  const failures: number[] = [];
  let idCounter = 0;
  const counts = { main: 0, side: 0, conversations: 0, input: 0, output: 0 };

  const model: ScriptedAnthropicModel = {
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
    if (req.method === 'HEAD' || req.method === 'GET') {
      probes.push(`${req.method} ${url}`);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
      return void res.end(req.method === 'GET' ? '{}' : undefined);
    }
    if (req.method !== 'POST' || !url.endsWith('/v1/messages')) {
      return sendError(res, 404, `Unknown endpoint ${req.method} ${url}.`);
    }
    let body: any;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return sendError(res, 400, 'The request body is not JSON.');
    }
    const messages: ChatMessage[] = Array.isArray(body?.messages) ? body.messages : [];
    const tools = (Array.isArray(body?.tools) ? body.tools : []).map(asToolSpec);
    const main = isMain(body);
    const record: AnthropicModelRequest = { n: requests.length + 1, body, headers: req.headers, main };
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
    const answer = main ? decide(messages, tools) : { text: 'Done.' };
    const usage: AnthropicUsage = { input_tokens: estimateTokens([body.system, messages]), output_tokens: estimateTokens(answer) };
    record.answer = answer;
    record.usage = usage;
    counts.input += usage.input_tokens;
    counts.output += usage.output_tokens;
    options.log?.(`request ${record.n}${main ? '' : ' (side)'}: ${'tool' in answer ? `${answer.tool} ${JSON.stringify(answer.args).slice(0, 120)}` : JSON.stringify(answer.text)}`);
    const id = ++idCounter;
    const message = { id: `msg_scripted_${id}`, toolUseId: `toolu_scripted_${id}`, model: typeof body.model === 'string' ? body.model : 'scripted' };
    if (body.stream === true) return streamAnswer(res, answer, usage, message);
    sendJson(res, 200, messageOf(answer, usage, message));
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
  (model as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return model;
}

interface MessageIds { id: string; toolUseId: string; model: string }

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: http.ServerResponse, status: number, message: string): void {
  const type = ERROR_TYPES[status] ?? (status === 404 ? 'not_found_error' : 'api_error');
  sendJson(res, status, { type: 'error', error: { type, message } });
}

const stopReasonOf = (answer: AgentAction) => ('tool' in answer ? 'tool_use' : 'end_turn');

function contentOf(answer: AgentAction, ids: MessageIds): Array<Record<string, unknown>> {
  return 'tool' in answer
    ? [{ type: 'tool_use', id: ids.toolUseId, name: answer.tool, input: answer.args }]
    : [{ type: 'text', text: answer.text }];
}

function messageOf(answer: AgentAction, usage: AnthropicUsage, ids: MessageIds): Record<string, unknown> {
  return { id: ids.id, type: 'message', role: 'assistant', model: ids.model, content: contentOf(answer, ids), stop_reason: stopReasonOf(answer), stop_sequence: null, usage };
}

function streamAnswer(res: http.ServerResponse, answer: AgentAction, usage: AnthropicUsage, ids: MessageIds): void {
  const events: string[] = [];
  const event = (data: { type: string } & Record<string, unknown>) => events.push(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  event({
    type: 'message_start',
    message: { id: ids.id, type: 'message', role: 'assistant', model: ids.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } },
  });
  if ('tool' in answer) {
    event({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: ids.toolUseId, name: answer.tool, input: {} } });
    // The input arrives in pieces, as real models stream it: the agent must join them before parsing.
    for (const piece of halves(JSON.stringify(answer.args))) event({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: piece } });
  } else {
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    for (const piece of halves(answer.text)) event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
  }
  event({ type: 'content_block_stop', index: 0 });
  event({ type: 'message_delta', delta: { stop_reason: stopReasonOf(answer), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  event({ type: 'message_stop' });
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

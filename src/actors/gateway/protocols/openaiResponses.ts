// The OpenAI Responses API as Codex CLI speaks it: POST …/responses, streamed events with names (response.created …
// response.completed, which carries the usage), or a whole response object. The conversation is `input`: messages,
// function calls and their outputs as separate items.
import type { ServerResponse } from 'node:http';
import type { GatewayProtocol, StreamTap } from './protocol';
import type { TappedAnswer } from '../responseTap';

interface ResponsesUsage { input_tokens?: unknown; output_tokens?: unknown }
interface OutputItem { type?: unknown; name?: unknown; content?: unknown }

const n = (v: unknown) => (typeof v === 'number' ? v : 0);

/** `input` items as chat messages: a function call is an assistant tool call, its output a tool message. */
function messagesOf(request: Record<string, unknown>): object[] {
  const input = request.input;
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [];
  return input.map((raw) => {
    const item = (raw ?? {}) as { type?: unknown; role?: unknown; content?: unknown; name?: unknown; arguments?: unknown; output?: unknown; input?: unknown; call_id?: unknown; action?: unknown };
    // The call id pairs each output with its call (Codex may make several calls at once).
    const id = typeof item.call_id === 'string' ? item.call_id : undefined;
    if (item.type === 'function_call' || item.type === 'custom_tool_call' || item.type === 'local_shell_call') {
      return { role: 'assistant', tool_calls: [{ id, function: { name: item.name ?? item.type, arguments: item.arguments ?? item.input ?? item.action ?? '' } }] };
    }
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output' || item.type === 'local_shell_call_output') {
      return { role: 'tool', tool_call_id: id, content: outputText(item.output) };
    }
    if (item.type === 'reasoning') return { role: 'assistant', content: '' };
    return { role: item.role ?? 'user', content: item.content };
  });
}

/** A tool output's text: a string, or content parts (input_text …) whose texts are joined. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output) && output.every((p) => typeof (p as { text?: unknown })?.text === 'string')) return output.map((p) => (p as { text: string }).text).join('\n');
  return JSON.stringify(output ?? '');
}

function outputOf(items: unknown): { text: string; toolCalls: string[] } {
  let text = '';
  const toolCalls: string[] = [];
  for (const raw of Array.isArray(items) ? items : []) {
    const item = raw as OutputItem;
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) if (typeof (part as { text?: unknown }).text === 'string') text += (part as { text: string }).text;
    }
    if ((item.type === 'function_call' || item.type === 'custom_tool_call') && typeof item.name === 'string') toolCalls.push(item.name);
  }
  return { text, toolCalls };
}

function sendFinal(res: ServerResponse, opts: { stream: boolean; model: string; text: string }): void {
  const id = `resp_greenloop_${Date.now().toString(36)}`;
  const created_at = Math.floor(Date.now() / 1000);
  const message = { type: 'message', id: `msg_${id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: opts.text, annotations: [] }] };
  const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  const response = { id, object: 'response', created_at, status: 'completed', model: opts.model, output: [message], usage };
  if (!opts.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let seq = 0;
  const event = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
  event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } });
  event('response.content_part.added', { output_index: 0, item_id: message.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  event('response.output_text.delta', { output_index: 0, item_id: message.id, content_index: 0, delta: opts.text });
  event('response.output_text.done', { output_index: 0, item_id: message.id, content_index: 0, text: opts.text });
  event('response.content_part.done', { output_index: 0, item_id: message.id, content_index: 0, part: message.content[0] });
  event('response.output_item.done', { output_index: 0, item: message });
  event('response.completed', { response });
  res.end();
}

export const openaiResponses: GatewayProtocol = {
  name: 'openai-responses',
  agentUrl: (origin) => `${origin}/v1`,
  upstreamUrl: (upstream, path) => `${upstream}${path.replace(/^\/v1(?=\/|$)/, '')}`,
  isModelCall: (method, path) => method === 'POST' && /\/responses$/.test(path.split('?')[0]!),
  messagesOf,
  requestedMaxTokens: (r) => (typeof r.max_output_tokens === 'number' ? r.max_output_tokens : undefined),
  prepare(request, maxTokens) {
    const outgoing = { ...request };
    if (maxTokens !== undefined) outgoing.max_output_tokens = maxTokens;
    return { outgoing, hideUsageEvents: false };
  },
  streamTap(): StreamTap {
    let usage: TappedAnswer['usage'] = null;
    let text = '';
    const calls: string[] = [];
    return {
      take(data, event) {
        let e: { type?: string; delta?: unknown; item?: OutputItem; response?: { usage?: ResponsesUsage } };
        try {
          e = JSON.parse(data);
        } catch {
          return true;
        }
        const type = e.type ?? event;
        if (type === 'response.output_text.delta' && typeof e.delta === 'string') text += e.delta;
        if (type === 'response.output_item.done' && (e.item?.type === 'function_call' || e.item?.type === 'custom_tool_call') && typeof e.item.name === 'string') calls.push(e.item.name);
        if ((type === 'response.completed' || type === 'response.incomplete') && e.response?.usage) {
          usage = { prompt: n(e.response.usage.input_tokens), completion: n(e.response.usage.output_tokens) };
        }
        return true;
      },
      result: () => ({ usage, text, toolCalls: calls }),
    };
  },
  wholeTap(body) {
    const b = (body ?? {}) as { usage?: ResponsesUsage; output?: unknown };
    const { text, toolCalls } = outputOf(b.output);
    return { usage: b.usage ? { prompt: n(b.usage.input_tokens), completion: n(b.usage.output_tokens) } : null, text, toolCalls };
  },
  sendFinal,
  keyHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  keyHeaderNames: ['authorization', 'api-key'],
  errorBody: (status, message) => ({ error: { message, type: 'greenloop_gateway', code: status } }),
};

// The Anthropic Messages API as Claude Code speaks it: POST /v1/messages (streamed events with names, or whole JSON).
// Usage arrives in every answer (message_start: input, message_delta: output so far), so nothing has to be asked for.
import type { ServerResponse } from 'node:http';
import type { GatewayProtocol, StreamTap } from './protocol';
import type { TappedAnswer } from '../responseTap';

interface AnthropicUsage { input_tokens?: unknown; output_tokens?: unknown; cache_creation_input_tokens?: unknown; cache_read_input_tokens?: unknown }

const n = (v: unknown) => (typeof v === 'number' ? v : 0);
/** Everything the model read: fresh input and what was written to or read from the prompt cache. */
const inputOf = (u: AnthropicUsage) => n(u.input_tokens) + n(u.cache_creation_input_tokens) + n(u.cache_read_input_tokens);

function blocksOf(content: unknown): { text: string; toolCalls: string[] } {
  let text = '';
  const toolCalls: string[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    const b = block as { type?: unknown; text?: unknown; name?: unknown };
    if (b.type === 'text' && typeof b.text === 'string') text += b.text;
    if (b.type === 'tool_use' && typeof b.name === 'string') toolCalls.push(b.name);
  }
  return { text, toolCalls };
}

function sendFinal(res: ServerResponse, opts: { stream: boolean; model: string; text: string }): void {
  const message = {
    id: `msg_greenloop_${Date.now().toString(36)}`, type: 'message', role: 'assistant', model: opts.model,
    content: [{ type: 'text', text: opts.text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 },
  };
  if (!opts.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const event = (name: string, data: object) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  event('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } });
  event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: opts.text } });
  event('content_block_stop', { type: 'content_block_stop', index: 0 });
  event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 0 } });
  event('message_stop', { type: 'message_stop' });
  res.end();
}

export const anthropicMessages: GatewayProtocol = {
  name: 'anthropic-messages',
  // Claude Code appends /v1/messages itself: the agent gets the origin, and paths go upstream as they came.
  agentUrl: (origin) => origin,
  upstreamUrl: (upstream, path) => `${upstream}${path}`,
  isModelCall: (method, path) => method === 'POST' && /\/v1\/messages$/.test(path.split('?')[0]!),
  messagesOf: (r) => (Array.isArray(r.messages) ? (r.messages as object[]) : []),
  requestedMaxTokens: (r) => (typeof r.max_tokens === 'number' ? r.max_tokens : undefined),
  prepare(request, maxTokens) {
    const outgoing = { ...request };
    // A thinking budget must stay below max_tokens: the cap is never set under it (the meter stops the attempt first).
    const thinking = (request.thinking ?? {}) as { budget_tokens?: unknown };
    const floor = typeof thinking.budget_tokens === 'number' ? thinking.budget_tokens + 1 : 1;
    if (maxTokens !== undefined) outgoing.max_tokens = Math.max(floor, maxTokens);
    return { outgoing, hideUsageEvents: false };
  },
  streamTap(): StreamTap {
    let input = 0;
    let output = 0;
    let seen = false;
    let text = '';
    const calls: string[] = [];
    return {
      take(data, event) {
        let e: { type?: string; message?: { usage?: AnthropicUsage }; usage?: AnthropicUsage; delta?: { type?: string; text?: string }; content_block?: { type?: string; name?: string } };
        try {
          e = JSON.parse(data);
        } catch {
          return true;
        }
        const type = e.type ?? event;
        if (type === 'message_start' && e.message?.usage) {
          seen = true;
          input = inputOf(e.message.usage);
          output = n(e.message.usage.output_tokens);
        }
        if (type === 'message_delta' && e.usage) {
          seen = true;
          // Cumulative: the last message_delta holds the answer's whole output.
          output = n(e.usage.output_tokens) || output;
          if (n(e.usage.input_tokens)) input = inputOf(e.usage);
        }
        if (type === 'content_block_delta' && e.delta?.type === 'text_delta' && typeof e.delta.text === 'string') text += e.delta.text;
        if (type === 'content_block_start' && e.content_block?.type === 'tool_use' && typeof e.content_block.name === 'string') calls.push(e.content_block.name);
        return true;
      },
      result: (): TappedAnswer => ({ usage: seen ? { prompt: input, completion: output } : null, text, toolCalls: calls }),
    };
  },
  wholeTap(body) {
    const b = (body ?? {}) as { usage?: AnthropicUsage; content?: unknown };
    const { text, toolCalls } = blocksOf(b.content);
    return { usage: b.usage ? { prompt: inputOf(b.usage), completion: n(b.usage.output_tokens) } : null, text, toolCalls };
  },
  sendFinal,
  keyHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
  keyHeaderNames: ['x-api-key', 'authorization'],
  errorBody: (_status, message) => ({ type: 'error', error: { type: 'api_error', message } }),
};

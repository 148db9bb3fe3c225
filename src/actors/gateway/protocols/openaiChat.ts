// OpenAI Chat Completions as an agent speaks it to the gateway: POST …/chat/completions, streamed or not.
import type { GatewayProtocol, StreamTap } from './protocol';
import { ChunkTap, tapWholeAnswer } from '../responseTap';
import { sendFinalMessage } from '../syntheticAnswer';

export const openaiChat: GatewayProtocol = {
  name: 'openai-chat',
  agentUrl: (origin) => `${origin}/v1`,
  // The agent's base URL ends in /v1 like the upstream's: the rest of the path follows it.
  upstreamUrl: (upstream, path) => `${upstream}${path.replace(/^\/v1(?=\/|$)/, '')}`,
  isModelCall: (method, path) => method === 'POST' && /\/chat\/completions$/.test(path.split('?')[0]!),
  messagesOf: (r) => (Array.isArray(r.messages) ? (r.messages as object[]) : []),
  requestedMaxTokens: (r) => (typeof r.max_tokens === 'number' ? r.max_tokens : typeof r.max_completion_tokens === 'number' ? r.max_completion_tokens : undefined),
  prepare(request, maxTokens) {
    const outgoing = { ...request };
    if (maxTokens !== undefined) {
      if (typeof request.max_completion_tokens === 'number') outgoing.max_completion_tokens = maxTokens;
      else outgoing.max_tokens = maxTokens;
    }
    // Usage in a stream comes only when asked for; the chunk that carries it is held back if the agent did not ask.
    const streamOptions = (request.stream_options ?? {}) as Record<string, unknown>;
    const hideUsageEvents = request.stream === true && streamOptions.include_usage !== true;
    if (hideUsageEvents) outgoing.stream_options = { ...streamOptions, include_usage: true };
    return { outgoing, hideUsageEvents };
  },
  streamTap(hideUsageEvents): StreamTap {
    const tap = new ChunkTap();
    return {
      take(data) {
        try {
          const usageOnly = tap.take(JSON.parse(data));
          return !(usageOnly && hideUsageEvents);
        } catch {
          return true; // Not JSON: the agent gets it as it came and makes of it what it can.
        }
      },
      result: () => tap.result(),
    };
  },
  wholeTap: tapWholeAnswer,
  sendFinal: sendFinalMessage,
  keyHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  keyHeaderNames: ['authorization', 'api-key'],
  errorBody: (status, message) => ({ error: { message, type: 'greenloop_gateway', code: status } }),
};

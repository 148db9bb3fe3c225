// What the gateway needs to know about one model protocol: which requests are model calls, where they go upstream,
// how to read cost and content from an answer while it passes, and how to answer "stop now" in that protocol.
import type { ServerResponse } from 'node:http';
import type { TappedAnswer } from '../responseTap';

export interface StreamTap {
  /** One SSE event's data (and name); returns false when the event must not reach the agent. */
  take(data: string, event?: string): boolean;
  result(): TappedAnswer;
}

export interface GatewayProtocol {
  readonly name: 'openai-chat' | 'openai-responses' | 'anthropic-messages';
  /** The base URL the agent is given, for a gateway listening on `origin` (http://127.0.0.1:PORT). */
  agentUrl(origin: string): string;
  /** The upstream URL for a request path as the agent sent it. */
  upstreamUrl(upstream: string, path: string): string;
  isModelCall(method: string, path: string): boolean;
  /** The conversation in chat form (role, content, tool_calls), for counting steps and telling repeats. */
  messagesOf(request: Record<string, unknown>): object[];
  /** The request as sent upstream: `maxTokens` applied, usage asked for; `hideUsageEvents` when the agent did not ask. */
  prepare(request: Record<string, unknown>, maxTokens: number | undefined): { outgoing: Record<string, unknown>; hideUsageEvents: boolean };
  requestedMaxTokens(request: Record<string, unknown>): number | undefined;
  streamTap(hideUsageEvents: boolean): StreamTap;
  wholeTap(body: unknown): TappedAnswer;
  sendFinal(res: ServerResponse, opts: { stream: boolean; model: string; text: string }): void;
  /** Headers that carry a key the gateway holds (the agent's own are replaced). */
  keyHeaders(apiKey: string): Record<string, string>;
  /** Header names that carry the agent's key, dropped when the gateway holds the key. */
  readonly keyHeaderNames: readonly string[];
  /** An error body in this protocol's shape. */
  errorBody(status: number, message: string): unknown;
}

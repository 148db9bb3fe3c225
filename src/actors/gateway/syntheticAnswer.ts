// The gateway's own answer when an attempt must end: a plain final assistant message with no tool call. Every agent
// loop ends its turn on such an answer by its own rule, so the agent stops cleanly and leaves its work to be judged.
import type { ServerResponse } from 'node:http';

export function sendFinalMessage(res: ServerResponse, opts: { stream: boolean; model: string; text: string }): void {
  const id = `chatcmpl-greenloop-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  if (!opts.stream) {
    const body = {
      id, object: 'chat.completion', created, model: opts.model,
      choices: [{ index: 0, message: { role: 'assistant', content: opts.text }, finish_reason: 'stop' }],
      usage,
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (choices: unknown[], extra: object = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: opts.model, choices, ...extra })}\n\n`);
  chunk([{ index: 0, delta: { role: 'assistant', content: opts.text }, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
  chunk([], { usage });
  res.end('data: [DONE]\n\n');
}

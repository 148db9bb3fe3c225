// Reads what an upstream answer says about cost and content while it passes through: the usage counts, the text
// the model wrote, the tools it called. Streams (SSE chunks) and whole JSON answers alike.

export interface TappedAnswer {
  usage: { prompt: number; completion: number } | null;
  text: string;
  toolCalls: string[];
}

export class ChunkTap {
  private usage: TappedAnswer['usage'] = null;
  private text = '';
  private readonly calls: string[] = [];

  /** One chunk's JSON; returns true when it carries only usage (no choices), the chunk the gateway may have asked for. */
  take(chunk: unknown): boolean {
    if (!chunk || typeof chunk !== 'object') return false;
    const c = chunk as { usage?: unknown; choices?: unknown };
    const usage = usageOf(c.usage);
    if (usage) this.usage = usage;
    const choices = Array.isArray(c.choices) ? c.choices : [];
    for (const choice of choices) {
      const delta = (choice as { delta?: { content?: unknown; tool_calls?: unknown } })?.delta;
      if (typeof delta?.content === 'string') this.text += delta.content;
      if (Array.isArray(delta?.tool_calls)) {
        for (const call of delta.tool_calls) {
          const name = (call as { function?: { name?: unknown } })?.function?.name;
          if (typeof name === 'string' && name) this.calls.push(name);
        }
      }
    }
    return usage !== null && choices.length === 0;
  }

  result(): TappedAnswer {
    return { usage: this.usage, text: this.text, toolCalls: this.calls };
  }
}

/** A whole (non-streamed) chat completion. */
export function tapWholeAnswer(body: unknown): TappedAnswer {
  const b = (body ?? {}) as { usage?: unknown; choices?: unknown };
  const choices = Array.isArray(b.choices) ? b.choices : [];
  let text = '';
  const toolCalls: string[] = [];
  for (const choice of choices) {
    const message = (choice as { message?: { content?: unknown; tool_calls?: unknown } })?.message;
    if (typeof message?.content === 'string') text += message.content;
    if (Array.isArray(message?.tool_calls)) {
      for (const call of message.tool_calls) {
        const name = (call as { function?: { name?: unknown } })?.function?.name;
        if (typeof name === 'string') toolCalls.push(name);
      }
    }
  }
  return { usage: usageOf(b.usage), text, toolCalls };
}

function usageOf(u: unknown): TappedAnswer['usage'] {
  if (!u || typeof u !== 'object') return null;
  const { prompt_tokens: p, completion_tokens: c } = u as { prompt_tokens?: unknown; completion_tokens?: unknown };
  if (typeof p !== 'number' && typeof c !== 'number') return null;
  return { prompt: typeof p === 'number' ? p : 0, completion: typeof c === 'number' ? c : 0 };
}

/** The answer in a few words for the request log. */
export function answerBrief(a: TappedAnswer): string {
  if (a.toolCalls.length) return `called ${a.toolCalls.join(', ')}`;
  const text = a.text.trim().replace(/\s+/g, ' ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

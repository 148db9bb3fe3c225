// The tool calls in an agent's conversation, each with the result it got, whatever protocol carried them: OpenAI
// Chat Completions (assistant `tool_calls`, `tool` messages), the Responses API (read into that same chat form) and
// Anthropic Messages (`tool_use` and `tool_result` blocks). A call is named by its tool and its arguments as the
// comparison sees them (key order, the JSON's spacing, a file named from the workspace or absolutely, the workspace's
// path and temp folders aside), its result by its text.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { contentText } from './conversationStep';
import { normalizeMessage } from '../../base/normalize';

export interface ToolExchange {
  /** The call's identity: tool name and normalized arguments, hashed. */
  key: string;
  /** The id the protocol gave this one call, or null when it gave none. */
  id: string | null;
  name: string;
  /** The arguments as the agent sent them (JSON text), for reading the command a shell ran. */
  args: string;
  /** The result's text as the agent was given it. */
  result: string;
  /** Its result arrived after the agent's last model answer: it is what the next answer will react to. */
  latest: boolean;
}

interface Message { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown }
interface PendingCall { id: string | null; name: string; args: string; key: string }

/** JSON with its object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Arguments that say how or why, never what: the words a model gives a shell call ("Run the tests again"), the time it
 * allows it. Two runs of `npm test` described differently are the same call.
 */
const NOT_IDENTITY = new Set(['description', 'explanation', 'justification', 'timeout', 'timeout_ms', 'yield_time_ms', 'max_output_tokens', 'run_in_background']);

/** Arguments that name a file: `calc.js`, `./calc.js` and `/work/calc.js` are one file, so one call. */
const PATH_ARG = /^(?:file_?path|absolute_?path|path|filename|notebook_?path)$/i;

function argsText(raw: unknown, cwd: string): string {
  let value = raw ?? {};
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return raw; // A custom tool's free-form input (Codex's apply_patch grammar) is compared as it is.
    }
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    value = Object.fromEntries(Object.entries(value).filter(([k]) => !NOT_IDENTITY.has(k)).map(([k, v]) => [k, PATH_ARG.test(k) && typeof v === 'string' && v ? path.resolve(cwd, v) : v]));
  }
  return canonical(value);
}

function callKey(name: string, args: string, cwd: string): string {
  return createHash('sha256').update(`${name}\0${normalizeMessage(args, { cwd })}`).digest('hex');
}

function callsOf(message: Message, cwd: string): PendingCall[] {
  const calls: PendingCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    for (const raw of message.tool_calls) {
      const call = (raw ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      const name = String(call.function?.name ?? '');
      const args = argsText(call.function?.arguments, cwd);
      calls.push({ id: typeof call.id === 'string' ? call.id : null, name, args, key: callKey(name, args, cwd) });
    }
  }
  if (Array.isArray(message.content)) {
    for (const raw of message.content) {
      const block = (raw ?? {}) as { type?: unknown; id?: unknown; name?: unknown; input?: unknown };
      if (block.type !== 'tool_use') continue;
      const name = String(block.name ?? '');
      const args = argsText(block.input, cwd);
      calls.push({ id: typeof block.id === 'string' ? block.id : null, name, args, key: callKey(name, args, cwd) });
    }
  }
  return calls;
}

/** Results a message carries: a `tool` message's content, or a user message's `tool_result` blocks. */
function resultsOf(message: Message): Array<{ id: string | null; text: string }> {
  if (message.role === 'tool') return [{ id: typeof message.tool_call_id === 'string' ? message.tool_call_id : null, text: contentText(message.content) }];
  if (!Array.isArray(message.content)) return [];
  return message.content.flatMap((raw) => {
    const block = (raw ?? {}) as { type?: unknown; tool_use_id?: unknown; content?: unknown };
    if (block.type !== 'tool_result') return [];
    return [{ id: typeof block.tool_use_id === 'string' ? block.tool_use_id : null, text: contentText(block.content) }];
  });
}

/** Every answered tool call of the conversation, in the order the results came; a call with no result yet is left out. */
export function toolExchanges(messages: readonly object[], cwd: string): ToolExchange[] {
  const out: ToolExchange[] = [];
  let pending: PendingCall[] = [];
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    if ((m as Message).role === 'assistant') lastAssistant = i;
  });
  messages.forEach((raw, i) => {
    const message = raw as Message;
    if (message.role === 'assistant') {
      pending.push(...callsOf(message, cwd));
      return;
    }
    for (const result of resultsOf(message)) {
      // Paired by id where the protocol gives one, else with the oldest call still waiting.
      const at = result.id === null ? -1 : pending.findIndex((c) => c.id === result.id);
      const call = pending[at < 0 ? 0 : at];
      if (!call) continue;
      pending = pending.filter((c) => c !== call);
      out.push({ key: call.key, id: call.id, name: call.name, args: call.args, result: result.text, latest: i > lastAssistant });
    }
  });
  return out;
}

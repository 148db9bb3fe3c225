// What one request of an agent adds to its conversation, reduced to what the agent did and what it was told, so the
// gateway can see an agent going round in circles inside one attempt. An agent's requests always grow (each carries
// the whole conversation), so two requests are never equal byte for byte; what repeats is the step: the same tool
// calls with the same arguments answered by the same results (after timings, temp paths and call ids are left out).
import { createHash } from 'node:crypto';
import { normalizeMessage } from '../../base/normalize';

interface ChatMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  name?: unknown;
}

/**
 * Text of a message's content, whether a string or a list of parts. Anthropic-style parts count too: a tool call
 * (`tool_use`) as its name and input, a tool result as its content; never their ids.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => {
    if (!part || typeof part !== 'object') return '';
    const p = part as { type?: unknown; text?: unknown; name?: unknown; input?: unknown; content?: unknown };
    if (typeof p.text === 'string') return p.text;
    if (p.type === 'tool_use') return `${String(p.name)}(${JSON.stringify(p.input ?? {})})`;
    if (p.type === 'tool_result') return contentText(p.content);
    return '';
  }).join('\n');
}

function toolCallsOf(message: ChatMessage): string[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.map((call) => {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } })?.function;
    return `${String(fn?.name ?? '')}(${typeof fn?.arguments === 'string' ? fn.arguments : JSON.stringify(fn?.arguments ?? '')})`;
  });
}

/**
 * What an agent's shell tool adds around a command's output that is new every run: qwen's process ids ("Process
 * Group PGID: 17836"); Codex's chunk id, its wall time in whole seconds and its count of the output's tokens (which
 * moves with the digits of every timing in the output); Codex's older shell tool's `duration_seconds`.
 */
const RUN_NOISE: Array<[RegExp, string]> = [
  [/\b(pgid|pid|process id|process group(?: id)?)(\s*[:=#]?\s*)\d+/gi, '$1$2<pid>'],
  [/\b(chunk id:\s*)[\w-]+/gi, '$1<id>'],
  [/\b(wall time:?\s*)\d+(?:\.\d+)?(\s*(?:seconds|secs?|s)\b)?/gi, '$1<dur>'],
  [/\b(original token count:?\s*)\d+/gi, '$1<n>'],
  [/("duration_seconds"\s*:\s*)\d+(?:\.\d+)?/g, '$1<dur>'],
];

/** A tool result or message text as the comparison sees it: timings, pids, temp paths and the workspace aside. */
export function comparableText(text: string, cwd: string): string {
  let out = text;
  for (const [re, to] of RUN_NOISE) out = out.replace(re, to);
  return normalizeMessage(out, { cwd });
}

/** One message as the comparison sees it: role, text and calls; never ids, which differ every time. */
function messageKey(message: ChatMessage, cwd: string): string {
  const text = comparableText(contentText(message.content), cwd);
  return `${String(message.role)}\0${text}\0${toolCallsOf(message).join('\0')}`;
}

/**
 * The part of the conversation since the agent's last model answer: that answer (its text and tool calls) and the
 * tool results and user turns that followed it. The first request of an attempt has no step yet (null).
 */
export function lastStep(messages: readonly ChatMessage[], cwd: string): string | null {
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  if (lastAssistant < 0) return null;
  const step = messages.slice(lastAssistant).map((m) => messageKey(m, cwd)).join('\u0001');
  return createHash('sha256').update(step).digest('hex');
}

/** The identity of a whole request's conversation (for a request sent again unchanged). */
export function conversationKey(messages: readonly ChatMessage[], cwd: string): string {
  return createHash('sha256').update(messages.map((m) => messageKey(m, cwd)).join('\u0001')).digest('hex');
}

/** A short description of what the agent's last answer did, for the request log: `edit, run_shell_command`. */
export function lastCallsOf(messages: readonly ChatMessage[]): string[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role !== 'assistant') continue;
    const content = messages[i]!.content;
    // Anthropic puts tool calls in the content as tool_use parts.
    const anthropic = Array.isArray(content)
      ? content.flatMap((p) => (p && typeof p === 'object' && (p as { type?: unknown }).type === 'tool_use' ? [String((p as { name?: unknown }).name)] : []))
      : [];
    return [...toolCallsOf(messages[i]!).map((c) => c.slice(0, c.indexOf('('))), ...anthropic];
  }
  return [];
}

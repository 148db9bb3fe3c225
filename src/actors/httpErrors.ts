// Turns what can go wrong talking to a Chat Completions server into one ActorError a person can read,
// split the way the retry policy needs it: transient (try again later) or fatal (fix something first).
import { ActorError } from '../ports/actor';

/** Joins a lead and an optional detail into one sentence ending in a single full stop. */
export function sentence(lead: string, detail?: string, hint?: string): string {
  const d = detail?.trim().replace(/[.\s]+$/, '');
  const body = d ? `${lead}: ${d}` : lead;
  return hint && !d ? `${body}; ${hint}.` : `${body}.`;
}

/** Longest part of a server's error message that goes into a sentence. */
const MESSAGE_CHARS = 200;

/** Most bytes of an error body Greenloop reads: enough for any server's message, never the whole of a huge body. */
export const ERROR_BODY_BYTES = 16 * 1024;

/** One line, at most MESSAGE_CHARS characters. */
function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS)}…` : line;
}

/**
 * The server's own words from an error body: OpenAI `{error:{message}}`, Ollama `{error:"…"}`, vLLM/FastAPI —
 * also from the first bytes of a body too long to read whole, where the JSON never closes.
 */
export function serverMessage(bodyText: string): string | undefined {
  const text = bodyText.trim();
  if (!text) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === 'object') {
      const j = json as Record<string, unknown>;
      const err = j.error;
      if (typeof err === 'string') return short(err);
      if (err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') {
        return short((err as { message: string }).message);
      }
      if (typeof j.message === 'string') return short(j.message);
      if (typeof j.detail === 'string') return short(j.detail);
    }
  } catch {
    const cut = text.startsWith('{') ? messageInPrefix(text) : undefined;
    if (cut !== undefined) return short(cut);
    // Not JSON: fall through to the raw text, unless it is an HTML error page.
  }
  if (text.startsWith('<')) return undefined;
  return short(text);
}

/** The "message" (or string "error") of a JSON error body cut short, its string possibly unterminated. */
function messageInPrefix(text: string): string | undefined {
  const m = /"(?:message|error|detail)"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(text);
  if (!m) return undefined;
  // A cut in the middle of an escape (\ or \u12) would not decode: drop it.
  const raw = m[1]!.replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Retry-After as seconds or an HTTP-date (RFC 9110), plus OpenAI's retry-after-ms; undefined when absent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function httpStatusError(status: number, bodyText: string, headers: Headers): ActorError {
  const detail = serverMessage(bodyText);
  if (status === 429) {
    return new ActorError(sentence('The model server is rate-limiting requests (429)', detail), 'transient', retryAfterMs(headers), 'rate-limit');
  }
  if (status === 408 || status >= 500) {
    return new ActorError(sentence(`The model server failed (${status})`, detail), 'transient', retryAfterMs(headers), status === 408 ? 'timeout' : 'server');
  }
  const hint =
    status === 401 || status === 403 ? 'check the API key and its environment variable'
    : status === 404 ? 'check the base URL (it usually ends in /v1) and the model name'
    : 'check the model name and settings';
  return new ActorError(sentence(`The model server refused the request (${status})`, detail, hint), 'fatal', undefined, 'deterministic');
}

/** fetch() rejects with a TypeError whose cause carries the socket error code. */
export function networkError(err: unknown, baseUrl: string): ActorError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (err as { code?: string })?.code;
  const message = cause?.message ?? (err instanceof Error ? err.message : String(err));
  if (code === 'ENOTFOUND') {
    return new ActorError(`Could not find the model server's host for ${baseUrl}; check the base URL.`, 'fatal', undefined, 'deterministic');
  }
  if (code === 'ECONNREFUSED') {
    return new ActorError(`Could not connect to the model server at ${baseUrl} (connection refused); check that it is running.`, 'transient', undefined, 'network');
  }
  const what = code ? `${message} (${code})` : message;
  return new ActorError(sentence('The connection to the model server failed', what), 'transient', undefined, 'network');
}

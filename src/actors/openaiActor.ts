// An Actor over any OpenAI-compatible Chat Completions server (OpenAI, Ollama, vLLM, LM Studio, …).
// It makes exactly one request per call; retrying transient failures is core/loop/turns/retry.ts's job.
import { ActorError, AnswerTooLarge } from '../ports/actor';
import type { Actor, ActorRequest, ActorResponse, TokenUsage } from '../ports/actor';
import { abortError } from '../base/abort';
import { estimateTokens } from '../base/estimateTokens';
import { CHARS_PER_TOKEN } from '../base/textTrim';
import { DEFAULT_MAX_ANSWER_BYTES } from '../shared/config';
import { ERROR_BODY_BYTES, httpStatusError, networkError } from './httpErrors';
import { createRedactor } from '../base/redact';
import type { Redactor } from '../base/redact';
import { readSse, SseEventTooLarge } from './sse';
import { readCapped } from './cappedBody';

export interface OpenAIActorOptions {
  /** e.g. http://127.0.0.1:11434/v1 (a trailing slash is fine). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  stream?: boolean;
  /** Longest the server may go without sending PROGRESS_BYTES: before the reply, or within the body (see RequestGuard). */
  requestTimeoutMs?: number;
  temperature?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** Longest the check before the first test run waits for the model list. */
const CHECK_TIMEOUT_MS = 10_000;

interface RawUsage { prompt_tokens?: unknown; completion_tokens?: unknown }

/**
 * A body must bring this many bytes within every request timeout: a server that only drips (a byte a second)
 * is stalled, not slow — any real model sends more than that in one token's event.
 */
export const PROGRESS_BYTES = 256;

/**
 * Aborts on the caller's signal, or when the server goes a whole request timeout without progress: the response
 * headers, or PROGRESS_BYTES more of the body. Remembers which one it was, and how little had come.
 */
class RequestGuard {
  readonly controller = new AbortController();
  timedOut = false;
  /** Bytes received in the window that timed out. */
  stalledAt = 0;
  private windowBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason);

  constructor(private readonly outer: AbortSignal, private readonly timeoutMs: number) {
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    this.progress();
  }

  /** The server made progress: a new window starts. */
  progress(): void {
    this.windowBytes = 0;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.stalledAt = this.windowBytes;
      this.controller.abort();
    }, this.timeoutMs);
  }

  received(bytes: number): void {
    this.windowBytes += bytes;
    if (this.windowBytes >= PROGRESS_BYTES) this.progress();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }
}

export class OpenAIActor implements Actor {
  readonly label: string;
  private readonly endpoint: string;
  private readonly baseUrl: string;
  /** A server may echo the key in an error ("Incorrect API key provided: sk-…"): errors never carry it on. */
  private readonly redactor: Redactor;

  constructor(private readonly opts: OpenAIActorOptions) {
    this.redactor = createRedactor([opts.apiKey]);
    this.baseUrl = opts.baseUrl.trim().replace(/\/+$/, '');
    let url: URL | undefined;
    try {
      url = new URL(this.baseUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new Error(`The model base URL "${opts.baseUrl}" is not an http(s) URL; pass one like http://127.0.0.1:11434/v1.`);
    }
    if (!opts.model.trim()) throw new Error('No model name was given; pass the model to use, e.g. --model gpt-4o-mini.');
    this.endpoint = `${this.baseUrl}/chat/completions`;
    this.label = `openai:${opts.model} @ ${this.baseUrl}`;
  }

  /** Newer OpenAI models refuse `max_tokens` and want `max_completion_tokens`; learned from the first refusal. */
  private limitField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';

  async propose(req: ActorRequest): Promise<ActorResponse> {
    const timeoutMs = this.opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const maxBytes = req.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const guard = new RequestGuard(req.signal, timeoutMs);
    const onBytes = (n: number) => guard.received(n);
    try {
      let res = await this.post(req, guard);
      if (res.status === 400 && req.maxOutputTokens !== undefined && this.limitField === 'max_tokens') {
        const body = await this.errorBody(res, onBytes);
        if (!/max_completion_tokens/.test(body)) throw httpStatusError(res.status, body, res.headers);
        this.limitField = 'max_completion_tokens';
        res = await this.post(req, guard);
      }
      // Only the start of an error body is read: a server that sends a gigabyte of error gets one sentence.
      if (!res.ok) throw httpStatusError(res.status, await this.errorBody(res, onBytes), res.headers);
      // Some servers ignore `stream: true` and answer in one JSON body; read whatever arrived.
      const isSse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
      const { text, usage } = isSse && res.body ? await this.readStream(req, res.body, guard, maxBytes) : await this.readJson(req, res, onBytes, maxBytes);
      return { kind: 'text', text, usage: this.usage(req, text, usage) };
    } catch (err) {
      if (req.signal.aborted) throw abortError(req.signal);
      if (err instanceof AnswerTooLarge) throw err;
      throw this.toActorError(err, guard, timeoutMs);
    } finally {
      guard.dispose();
    }
  }

  /** Whether the endpoint gives `n` answers per request: unknown until asked, then remembered for the run. */
  private takesN: boolean | undefined;

  /**
   * `n` answers in one request, as one JSON body (no stream: the choices come interleaved). A 400 or 422 is taken
   * as the server refusing `n` (null: the caller asks once per answer, and a refusal of anything else is met there
   * again); a 200 with fewer choices means it ignores `n`, and is not asked so again.
   */
  async proposeMany(req: ActorRequest, n: number): Promise<ActorResponse[] | null> {
    if (this.takesN === false) return null;
    const timeoutMs = this.opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const maxBytes = (req.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES) * n;
    const guard = new RequestGuard(req.signal, timeoutMs);
    const onBytes = (b: number) => guard.received(b);
    try {
      const body: Record<string, unknown> = { ...this.body(req), n, stream: false };
      delete body.stream_options;
      const res = await fetch(this.endpoint, { method: 'POST', headers: this.headers(), body: JSON.stringify(body), signal: guard.controller.signal });
      guard.progress();
      if (res.status === 400 || res.status === 422) {
        await res.body?.cancel();
        this.takesN = false;
        return null;
      }
      if (!res.ok) throw httpStatusError(res.status, await this.errorBody(res, onBytes), res.headers);
      const read = await readCapped(res.body, maxBytes, onBytes);
      if (read.overflow) throw this.tooLarge(req, maxBytes, read.bytes);
      const answers = choicesOf(read.text, n);
      if (answers === null) throw new ActorError(`The model server's reply to a request for ${n} answers is not a Chat Completions body; check that ${this.baseUrl} is an OpenAI-compatible endpoint.`, 'fatal', undefined, 'deterministic');
      this.takesN = answers.texts.length >= n;
      return shareUsage(answers.texts, this.usage(req, answers.texts.join(''), answers.usage)).map((usage, i) => ({ kind: 'text' as const, text: answers.texts[i]!, usage }));
    } catch (err) {
      if (req.signal.aborted) throw abortError(req.signal);
      if (err instanceof AnswerTooLarge) throw err;
      throw this.toActorError(err, guard, timeoutMs);
    } finally {
      guard.dispose();
    }
  }

  async check(signal: AbortSignal): Promise<void> {
    // One bound for the whole check: nothing it receives (a header, a dripped byte) starts a new window.
    const boundMs = Math.min(this.opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, CHECK_TIMEOUT_MS);
    const guard = new RequestGuard(signal, boundMs);
    try {
      const res = await fetch(`${this.baseUrl}/models`, { headers: this.headers(), signal: guard.controller.signal });
      // Only a refused key is sure to refuse every completion too; a server without a model list may still answer them.
      if (res.status === 401 || res.status === 403) throw httpStatusError(res.status, await this.errorBody(res, () => undefined), res.headers);
      await res.body?.cancel();
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      const e = this.toActorError(err, guard, boundMs);
      // Nothing is retried here: a server that does not answer a model list now will not answer a prompt either.
      throw new ActorError(e.message.replace(/^The model server sent nothing for (\d+ s); the request was abandoned\.$/, `The model server at ${this.baseUrl} did not answer within $1; check the base URL and that the server is running.`), 'fatal', undefined, e.category);
    } finally {
      guard.dispose();
    }
  }

  /** The start of an error body, redacted before the message is cut short, so no cut leaves half a key to show. */
  private async errorBody(res: Response, onBytes: (n: number) => void): Promise<string> {
    return this.redactor.text((await readCapped(res.body, ERROR_BODY_BYTES, onBytes)).text);
  }

  private async post(req: ActorRequest, guard: RequestGuard): Promise<Response> {
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(this.body(req)),
      signal: guard.controller.signal,
    });
    guard.progress();
    return res;
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.opts.apiKey) h.authorization = `Bearer ${this.opts.apiKey}`;
    return h;
  }

  private body(req: ActorRequest): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: this.opts.model,
      messages: [
        { role: 'system', content: req.system },
        { role: 'user', content: req.prompt },
      ],
      stream: this.opts.stream === true,
    };
    if (this.opts.stream) body.stream_options = { include_usage: true };
    // The token budget's remainder: the server stops the answer there instead of billing past the budget.
    if (req.maxOutputTokens !== undefined) body[this.limitField] = Math.max(1, Math.floor(req.maxOutputTokens));
    if (this.opts.temperature !== undefined) body.temperature = this.opts.temperature;
    return body;
  }

  private async readJson(req: ActorRequest, res: Response, onBytes: (n: number) => void, maxBytes: number): Promise<{ text: string; usage?: RawUsage }> {
    const body = await readCapped(res.body, maxBytes, onBytes);
    if (body.overflow) throw this.tooLarge(req, maxBytes, body.bytes);
    const raw = body.text;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      const snippet = raw.trim().slice(0, 60).replace(/\s+/g, ' ');
      // A body that is not JSON does not become JSON by asking again: stop and say what arrived.
      throw new ActorError(`The model server's reply is not JSON ("${snippet}"); check that the base URL points at the Chat Completions API, not a proxy or web page.`, 'fatal', undefined, 'deterministic');
    }
    const j = (json ?? {}) as { choices?: unknown; usage?: RawUsage; error?: unknown };
    const choice = Array.isArray(j.choices) ? (j.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (!choice) {
      throw new ActorError(
        `The model server's reply has no choices; check that ${this.baseUrl} is an OpenAI-compatible Chat Completions endpoint.`,
        'fatal',
        undefined,
        'deterministic',
      );
    }
    const message = choice.message as { content?: unknown } | undefined;
    return { text: contentText(message?.content ?? choice.text), usage: j.usage };
  }

  private async readStream(req: ActorRequest, body: ReadableStream<Uint8Array>, guard: RequestGuard, maxBytes: number): Promise<{ text: string; usage?: RawUsage }> {
    let text = '';
    let textBytes = 0;
    let usage: RawUsage | undefined;
    let finished = false;
    const maxTokens = req.maxOutputTokens;
    // A server that ignores max_tokens is cut off a little past it (estimates are rough), never far past it.
    const cutAt = maxTokens === undefined ? Infinity : Math.ceil(maxTokens * 1.1) + 16;
    const read = readSse(
      body,
      (data) => {
        if (data.trim() === '[DONE]') return 'stop';
        let chunk: { choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>; usage?: RawUsage; error?: unknown };
        try {
          chunk = JSON.parse(data);
        } catch {
          throw new ActorError('The model server sent a stream event that is not JSON; check that it speaks the Chat Completions streaming protocol.', 'fatal', undefined, 'deterministic');
        }
        if (chunk.error) {
          const detail = typeof chunk.error === 'string' ? chunk.error : (chunk.error as { message?: string }).message;
          throw new ActorError(`The model server reported an error mid-answer: ${String(detail ?? 'no details').replace(/[.\s]+$/, '')}.`, 'transient', undefined, 'server');
        }
        const choice = chunk.choices?.[0];
        if (choice?.delta) {
          const piece = contentText(choice.delta.content);
          text += piece;
          textBytes += Buffer.byteLength(piece);
          if (textBytes > maxBytes) throw this.tooLarge(req, maxBytes, textBytes);
        }
        if (choice?.finish_reason) finished = true;
        if (chunk.usage) usage = chunk.usage;
        if (estimateTokens(text) > cutAt) {
          finished = true;
          return 'stop';
        }
      },
      // One event may carry the whole answer: it may be as large as the answer, plus its envelope.
      { onBytes: (n) => guard.received(n), maxEventBytes: maxBytes + 64 * 1024 },
    );
    const { stopped } = await read.catch((err: unknown) => {
      throw err instanceof SseEventTooLarge ? this.tooLarge(req, maxBytes, maxBytes) : err;
    });
    if (!stopped && !finished) {
      throw new ActorError('The model server closed the stream before the answer was complete.', 'transient', undefined, 'network');
    }
    return { text, usage };
  }

  /** The answer passed the cap after `bytes`: it is charged as estimated, since the server's count never came. */
  private tooLarge(req: ActorRequest, maxBytes: number, bytes: number): AnswerTooLarge {
    const prompt = estimateTokens(req.system) + estimateTokens(req.prompt);
    return new AnswerTooLarge(maxBytes, { prompt, completion: Math.ceil(bytes / CHARS_PER_TOKEN), estimated: true });
  }

  private usage(req: ActorRequest, text: string, raw?: RawUsage): TokenUsage {
    const p = raw?.prompt_tokens;
    const c = raw?.completion_tokens;
    if (typeof p === 'number' && typeof c === 'number' && Number.isFinite(p) && Number.isFinite(c)) {
      return { prompt: p, completion: c };
    }
    return { prompt: estimateTokens(req.system) + estimateTokens(req.prompt), completion: estimateTokens(text), estimated: true };
  }

  private toActorError(err: unknown, guard: RequestGuard, timeoutMs: number): ActorError {
    let out: ActorError;
    if (err instanceof ActorError) out = err;
    else if (guard.timedOut) {
      const wait = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
      const what = guard.stalledAt === 0 ? `nothing for ${wait}` : `only ${guard.stalledAt} byte${guard.stalledAt === 1 ? '' : 's'} in ${wait}`;
      out = new ActorError(`The model server sent ${what}; the request was abandoned.`, 'transient', undefined, 'timeout');
    } else out = networkError(err, this.baseUrl);
    const message = this.redactor.text(out.message);
    return message === out.message ? out : new ActorError(message, out.kind, out.retryAfterMs, out.category);
  }
}

/** The choices of a non-streamed body, by their index; null when it is not such a body. */
function choicesOf(raw: string, n: number): { texts: string[]; usage?: RawUsage } | null {
  let json: { choices?: unknown; usage?: RawUsage };
  try {
    json = JSON.parse(raw) ?? {};
  } catch {
    return null;
  }
  if (!Array.isArray(json.choices) || json.choices.length === 0) return null;
  const texts = (json.choices as Array<{ index?: unknown; message?: { content?: unknown }; text?: unknown }>)
    .map((c, i) => ({ at: typeof c.index === 'number' ? c.index : i, text: contentText(c?.message?.content ?? c?.text) }))
    .sort((a, b) => a.at - b.at)
    .slice(0, n)
    .map((c) => c.text);
  return { texts, usage: json.usage };
}

/** One request's usage split over its answers: the prompt (billed once) to the first, the completion by length. */
function shareUsage(texts: string[], total: TokenUsage): TokenUsage[] {
  const chars = texts.reduce((s, t) => s + t.length, 0) || texts.length;
  let given = 0;
  return texts.map((t, i) => {
    const completion = i === texts.length - 1 ? total.completion - given : Math.round((total.completion * (t.length || 1)) / chars);
    given += completion;
    return { prompt: i === 0 ? total.prompt : 0, completion, ...(total.estimated ? { estimated: true } : {}) };
  });
}

/** `content` is a string for every server we know, but the newer API also allows an array of text parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  }
  return '';
}

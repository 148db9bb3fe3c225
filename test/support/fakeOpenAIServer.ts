// A real HTTP server on loopback that speaks Chat Completions (plain and SSE) and plays a script:
// each request consumes the next step. Tests and the scripted demo model both stand on it.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptUsage { prompt_tokens: number; completion_tokens: number }

/** A successful answer; without `usage` the server sends no counts (the actor must estimate). */
export interface ContentStep {
  content: string;
  usage?: ScriptUsage;
  delayMs?: number;
  /** Streamed in deltas of this many characters (default: about three deltas). */
  chunkChars?: number;
  /** Answered only once this settles: a model that "thinks" until the test has seen what it wanted to, with no clock. */
  until?: Promise<unknown>;
  /** More answers after `content`, sent as the further choices of a reply that is not streamed: a server honouring `n`. */
  more?: string[];
}
/** An HTTP error; `body` is sent as JSON unless it is a string. Defaults to an OpenAI-style error body. */
export interface StatusStep { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
/** A 200 whose body is exactly this text (e.g. not JSON). */
export interface RawStep { raw: string; status?: number; contentType?: string; delayMs?: number }
/** Cut the socket: at once (no response at all), or after sending part of `partialContent`. */
export interface DropStep { dropConnection: true; partialContent?: string; delayMs?: number }
/** Wait, then answer with empty content: for request timeouts. */
export interface DelayStep { delayMs: number }
/**
 * Answer at once (SSE when the client asked for a stream, else JSON), then send one byte every `intervalMs`
 * and never finish: a stalled proxy or a hostile server. Ends only when the client hangs up.
 */
export interface DripStep { drip: { intervalMs: number }; delayMs?: number }
/**
 * A body of `bytes` bytes, made as it is sent (never held whole): with `status` an error body (an OpenAI-style JSON
 * error whose message is the filler), else an answer whose content is the filler. `sent` counts what went out.
 */
export interface HugeStep { huge: { bytes: number; status?: number; filler?: string }; delayMs?: number }

export type ScriptStep = ContentStep | StatusStep | RawStep | DropStep | DelayStep | DripStep | HugeStep;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body, or undefined when it was not JSON. */
  body: any;
}

export interface FakeOpenAIServer {
  /** Base URL including /v1, e.g. http://127.0.0.1:40123/v1 */
  readonly url: string;
  readonly port: number;
  /** Every request to /chat/completions, in arrival order. */
  readonly requests: RecordedRequest[];
  push(...steps: ScriptStep[]): void;
  remaining(): number;
  /** Drops the steps no request used yet and returns how many: what one test left cannot answer the next. */
  clear(): number;
  /** Requests that arrived after the script was used up (each answered 500). */
  readonly overruns: number;
  /** Prompt plus completion tokens of every answer that reported usage. */
  readonly tokensServed: number;
  /** Bytes each request's response body had written when its connection closed (drip and huge steps). */
  readonly sentBytes: number[];
  /** Resolves when the response to the request with this number (1-based) has started. */
  started(n: number): Promise<void>;
  /** Resolves when the response to the request with this number (1-based) has been sent whole. */
  answered(n: number): Promise<void>;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  port?: number;
  /** Called with one line per request, e.g. by the standalone script to log to stderr. */
  log?: (line: string) => void;
  /**
   * Answers each request from what it carries (a model that reads the prompt and the files it names); the
   * script's queue is used only when this returns undefined.
   */
  respond?: (request: RecordedRequest, n: number) => ScriptStep | undefined;
  /** Counts the tokens of answers whose step has no `usage` (prompt and answer length / 4), as a real server would. */
  countUsage?: boolean;
  /** Status for GET /models (default 200 with one model): 401 plays a server that refuses the key everywhere. */
  modelsStatus?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Numbered events a test can wait for ("request 2 has started"), whether they already happened or not. */
function milestones(): { reach(n: number): void; wait(n: number): Promise<void> } {
  const reached = new Set<number>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  return {
    reach(n) {
      reached.add(n);
      for (const w of waiters.filter((x) => x.n === n)) w.resolve();
    },
    wait: (n) => (reached.has(n) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
  };
}

/** A held answer is given up when the client gives up or the server closes, so no test waits on a dead request. */
function untilUnlessClosed(until: Promise<unknown>, res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('close', done);
      resolve();
    };
    void until.then(done, done);
    res.once('close', done);
  });
}

/** A scripted delay ends early when the client gives up or the server closes, so no timer outlives a test. */
function waitUnlessClosed(ms: number, res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

export async function startFakeOpenAIServer(script: ScriptStep[] = [], options: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  let overruns = 0;
  let served = 0;
  let tokensServed = 0;
  const sentBytes: number[] = [];
  const started = milestones();
  const answered = milestones();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => res.destroy());
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path.endsWith('/models')) {
      if (options.modelsStatus && options.modelsStatus !== 200) {
        return sendJson(res, options.modelsStatus, { error: { message: `Scripted failure ${options.modelsStatus}.`, type: 'invalid_request_error' } });
      }
      return sendJson(res, 200, { object: 'list', data: [{ id: 'scripted', object: 'model', owned_by: 'greenloop' }] });
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      return sendJson(res, 404, { error: { message: `Unknown endpoint ${req.method} ${path}.`, type: 'invalid_request_error' } });
    }
    let body: any;
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const recorded = { method: req.method, path, headers: req.headers, rawBody, body };
    requests.push(recorded);
    const n = requests.length;
    const step = options.respond?.(recorded, n) ?? queue.shift();
    if (!step) {
      overruns++;
      options.log?.(`request ${n}: script ran out`);
      return sendJson(res, 500, {
        error: { message: `The scripted model server ran out of steps after ${served} answers; add more steps to its script.`, type: 'server_error' },
      });
    }
    served++;
    options.log?.(`request ${n}: ${describe(step)}`);
    if (step.delayMs) {
      await waitUnlessClosed(step.delayMs, res);
      if (res.destroyed || req.socket.destroyed) return;
    }
    if ('until' in step && step.until) {
      await untilUnlessClosed(step.until, res);
      if (res.destroyed || req.socket.destroyed) return;
    }
    const stream = body?.stream === true;
    const model = typeof body?.model === 'string' ? body.model : 'scripted';
    started.reach(n);
    res.once('finish', () => answered.reach(n));
    if ('dropConnection' in step) return drop(res, step, stream, model);
    if ('drip' in step) return void (sentBytes[n - 1] = await drip(res, step, stream, model));
    if ('huge' in step) return void (sentBytes[n - 1] = await huge(res, step, stream, model));
    if ('status' in step && !('raw' in step)) {
      const s = step as StatusStep;
      const errBody = s.body ?? { error: { message: `Scripted failure ${s.status}.`, type: 'server_error' } };
      const text = typeof errBody === 'string' ? errBody : JSON.stringify(errBody);
      res.writeHead(s.status, { 'content-type': typeof errBody === 'string' ? 'text/plain' : 'application/json', ...s.headers });
      res.end(text);
      return;
    }
    if ('raw' in step) {
      res.writeHead(step.status ?? 200, { 'content-type': step.contentType ?? 'application/json' });
      res.end(step.raw);
      return;
    }
    const content = 'content' in step ? step.content : '';
    const more = 'content' in step ? step.more ?? [] : [];
    const usage = 'content' in step ? step.usage ?? (options.countUsage ? countedUsage(body, [content, ...more].join('')) : undefined) : undefined;
    if (usage) tokensServed += usage.prompt_tokens + usage.completion_tokens;
    if (stream) return streamAnswer(res, content, usage, model, body?.stream_options?.include_usage === true, 'content' in step ? step.chunkChars : undefined);
    sendJson(res, 200, completion([content, ...more], usage, model));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    push: (...steps) => void queue.push(...steps),
    remaining: () => queue.length,
    clear: () => queue.splice(0).length,
    get overruns() {
      return overruns;
    },
    get tokensServed() {
      return tokensServed;
    },
    sentBytes,
    started: started.wait,
    answered: answered.wait,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function describe(step: ScriptStep): string {
  if ('dropConnection' in step) return 'drop the connection';
  if ('raw' in step) return 'raw body';
  if ('drip' in step) return `drip a byte every ${step.drip.intervalMs} ms`;
  if ('huge' in step) return `${step.huge.status ? `HTTP ${step.huge.status} with ` : ''}a ${step.huge.bytes}-byte body`;
  if ('status' in step) return `HTTP ${step.status}`;
  if ('content' in step) return `answer (${step.content.length} chars)`;
  return `wait ${step.delayMs} ms`;
}

/** About four characters per token, the usual rule of thumb, over every message sent and the answer. */
function countedUsage(body: any, content: string): ScriptUsage {
  const sent = Array.isArray(body?.messages) ? body.messages.map((m: { content?: unknown }) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? ''))).join('') : '';
  return { prompt_tokens: Math.ceil(sent.length / 4), completion_tokens: Math.ceil(content.length / 4) };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function completion(contents: string[], usage: ScriptUsage | undefined, model: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: contents.map((content, index) => ({ index, message: { role: 'assistant', content }, finish_reason: 'stop' })),
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

function chunkEvent(model: string, delta: Record<string, unknown>, finish: string | null): string {
  const chunk = { id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Splits text into about three pieces (or pieces of `chunkChars`) so a stream has several deltas even for short answers. */
function pieces(text: string, chunkChars?: number): string[] {
  if (text.length < 3) return text ? [text] : [];
  const size = chunkChars ?? Math.ceil(text.length / 3);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function writeSlowly(res: http.ServerResponse, data: string): Promise<void> {
  if (res.destroyed) return;
  res.write(data);
  // A pause between writes makes each one its own TCP segment, so the client really sees a stream.
  await sleep(3);
}

function startStream(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

async function streamAnswer(res: http.ServerResponse, content: string, usage: ScriptUsage | undefined, model: string, includeUsage: boolean, chunkChars?: number): Promise<void> {
  startStream(res);
  const first = chunkEvent(model, { role: 'assistant', content: '' }, null);
  // One event split across two writes: the client's parser must buffer partial lines.
  const half = Math.floor(first.length / 2);
  await writeSlowly(res, first.slice(0, half));
  await writeSlowly(res, first.slice(half));
  for (const piece of pieces(content, chunkChars)) await writeSlowly(res, chunkEvent(model, { content: piece }, null));
  await writeSlowly(res, chunkEvent(model, {}, 'stop'));
  if (usage && includeUsage) {
    const tail = { id: 'chatcmpl-scripted', object: 'chat.completion.chunk', model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } };
    await writeSlowly(res, `data: ${JSON.stringify(tail)}\n\n`);
  }
  await writeSlowly(res, 'data: [DONE]\n\n');
  res.end();
}

async function drop(res: http.ServerResponse, step: DropStep, stream: boolean, model: string): Promise<void> {
  if (step.partialContent === undefined) {
    res.socket?.destroy();
    return;
  }
  if (stream) {
    startStream(res);
    for (const piece of pieces(step.partialContent)) await writeSlowly(res, chunkEvent(model, { content: piece }, null));
  } else {
    const full = JSON.stringify(completion([step.partialContent], undefined, model));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(full) });
    await writeSlowly(res, full.slice(0, Math.floor(full.length / 2)));
  }
  res.socket?.destroy();
}

/** Writes the pieces `next` makes until it returns null or the client goes, heeding backpressure; returns the bytes sent. */
async function pump(res: http.ServerResponse, next: () => string | null): Promise<number> {
  let gone = false;
  res.once('close', () => (gone = true));
  let sent = 0;
  for (let piece = next(); piece !== null && !gone; piece = next()) {
    sent += Buffer.byteLength(piece);
    if (res.write(piece)) continue;
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.once('drain', done);
      res.once('close', done);
    });
  }
  if (!gone) res.end();
  return sent;
}

/** `total` bytes of `filler`, 64 KB at a time, each piece wrapped by `wrap`. */
function pieceMaker(total: number, filler: string, wrap: (piece: string) => string = (p) => p): () => string | null {
  let made = 0;
  const block = filler.repeat(Math.ceil(65536 / filler.length)).slice(0, 65536);
  return () => {
    if (made >= total) return null;
    const size = Math.min(block.length, total - made);
    made += size;
    return wrap(size === block.length ? block : block.slice(0, size));
  };
}

async function huge(res: http.ServerResponse, step: HugeStep, stream: boolean, model: string): Promise<number> {
  const { bytes, status, filler = 'x' } = step.huge;
  let parts: Array<() => string | null>;
  if (status) {
    res.writeHead(status, { 'content-type': 'application/json' });
    parts = [once('{"error":{"type":"server_error","message":"'), pieceMaker(bytes, filler), once('"}}')];
  } else if (stream) {
    // One event per 64 KB of content, the way a fast stream's answer grows.
    startStream(res);
    parts = [pieceMaker(bytes, filler, (piece) => chunkEvent(model, { content: piece }, null)), once(`${chunkEvent(model, {}, 'stop')}data: [DONE]\n\n`)];
  } else {
    const whole = JSON.stringify(completion(['\u0000'], undefined, model));
    const at = whole.indexOf('\\u0000');
    res.writeHead(200, { 'content-type': 'application/json' });
    parts = [once(whole.slice(0, at)), pieceMaker(bytes, filler), once(whole.slice(at + '\\u0000'.length))];
  }
  return pump(res, () => {
    while (parts.length) {
      const piece = parts[0]!();
      if (piece !== null) return piece;
      parts.shift();
    }
    return null;
  });
}

function once(text: string): () => string | null {
  let done = false;
  return () => (done ? null : ((done = true), text));
}

async function drip(res: http.ServerResponse, step: DripStep, stream: boolean, model: string): Promise<number> {
  // What trickles out is a real answer, so a client that waited long enough would read something valid.
  const payload = stream ? chunkEvent(model, { content: 'x'.repeat(1000) }, null).repeat(1000) : JSON.stringify(completion(['x'.repeat(1_000_000)], undefined, model));
  if (stream) startStream(res);
  else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
  }
  let gone = false;
  res.once('close', () => (gone = true));
  let sent = 0;
  while (!gone && sent < payload.length) {
    res.write(payload[sent++]);
    await waitUnlessClosed(step.drip.intervalMs, res);
  }
  return sent;
}

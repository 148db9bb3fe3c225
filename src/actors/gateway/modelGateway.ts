// A loopback HTTP server that an agent CLI takes for its model. It speaks the OpenAI Chat Completions protocol
// (streamed and not; tool calls pass through untouched), sends each request on to the real upstream, and keeps the
// account: every request, the exact usage tokens, and — before each request — whether the attempt may still ask.
// When it may not, the gateway answers itself with a plain final message, which ends the agent's turn by the
// agent's own rule. One gateway serves a whole run; attempts open and close on it.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readSse } from '../sse';
import { readCapped } from '../cappedBody';
import { AttemptMeter, type AttemptBounds, type AttemptLedger, type GatewayStop } from './attemptMeter';
import { answerBrief, type TappedAnswer } from './responseTap';
import { CHARS_PER_TOKEN } from '../../base/textTrim';
import type { GatewayProtocol } from './protocols/protocol';
import { openaiChat } from './protocols/openaiChat';
import { anthropicMessages } from './protocols/anthropicMessages';
import { openaiResponses } from './protocols/openaiResponses';

/** What an agent speaks: OpenAI (Chat Completions or Responses, told apart by the path) or Anthropic Messages. */
export type GatewayProtocolName = 'openai-chat' | 'anthropic-messages';

/** The first protocol of a family gives the agent its base URL; each request is read by the one whose path it uses. */
const PROTOCOLS: Record<GatewayProtocolName, GatewayProtocol[]> = { 'openai-chat': [openaiChat, openaiResponses], 'anthropic-messages': [anthropicMessages] };

export interface GatewayOptions {
  /** The real model's base URL, e.g. https://api.openai.com/v1 (OpenAI) or https://api.anthropic.com (Anthropic). */
  upstream: string;
  /** What the agent speaks; default OpenAI Chat Completions. */
  protocol?: GatewayProtocolName;
  /** Sent upstream in place of whatever key the agent sends: the agent then never holds the real key. */
  apiKey?: string;
  /** Largest request or whole answer body held, in bytes. */
  maxBodyBytes?: number;
}

/** The gateway answered instead of the model this many times in one attempt: the agent does not stop by itself. */
const STUBBORN_AFTER = 5;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Headers that describe one hop, never passed on. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding', 'upgrade', 'proxy-connection']);

export class ModelGateway {
  private meter: AttemptMeter | null = null;
  private onStop: ((why: GatewayStop) => void) | null = null;
  private gatewayAnswers = 0;
  private readonly inFlight = new Set<AbortController>();
  private readonly protocols: GatewayProtocol[];

  private constructor(private readonly server: http.Server, private readonly opts: GatewayOptions) {
    this.protocols = PROTOCOLS[opts.protocol ?? 'openai-chat'];
  }

  /** The family's first protocol: the agent's base URL, key headers and error shape. */
  private get protocol(): GatewayProtocol {
    return this.protocols[0]!;
  }

  static async start(opts: GatewayOptions): Promise<ModelGateway> {
    if (!/^https?:\/\//.test(opts.upstream)) throw new Error(`The agent's model URL must start with http:// or https:// (got "${opts.upstream}").`);
    const server = http.createServer();
    // An agent is idle on its connection while it runs the tests, often longer than Node's 5 s keep-alive: the
    // server then closes the socket just as the agent reuses it, and the agent's fetch fails ("fetch failed") on
    // a busy machine. Two minutes outlasts a test run; close() still ends every connection at once.
    server.keepAliveTimeout = 120_000;
    server.headersTimeout = 125_000;
    const gateway = new ModelGateway(server, { ...opts, upstream: opts.upstream.replace(/\/+$/, '') });
    server.on('request', (req, res) => {
      gateway.handle(req, res).catch((err: Error) => {
        if (!res.headersSent) gateway.sendError(res, 500, `Greenloop's model gateway failed: ${err.message}`);
        else res.destroy(err);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return gateway;
  }

  /** What the agent is given as its base URL (OpenAI: ending in /v1; Anthropic: the origin). */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return this.protocol.agentUrl(`http://127.0.0.1:${port}`);
  }

  get upstream(): string {
    return this.opts.upstream;
  }

  /** From now on requests count against this attempt; `onStop` is told when the agent must be stopped. */
  openAttempt(bounds: AttemptBounds, onStop?: (why: GatewayStop) => void): AttemptMeter {
    this.closeAttempt();
    this.meter = new AttemptMeter(bounds);
    this.onStop = onStop ?? null;
    this.gatewayAnswers = 0;
    return this.meter;
  }

  /** Ends the attempt: later requests (a process the agent left behind) are answered by the gateway. */
  closeAttempt(): AttemptLedger | null {
    const meter = this.meter;
    if (!meter) return null;
    meter.close();
    this.meter = null;
    this.onStop = null;
    return meter.ledger;
  }

  async close(): Promise<void> {
    this.closeAttempt();
    for (const c of this.inFlight) c.abort();
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readRequestBody(req, this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    if (body === null) return this.sendError(res, 413, 'The request is larger than Greenloop\'s model gateway accepts.');
    const path = req.url ?? '/';
    const protocol = this.protocols.find((p) => p.isModelCall(req.method ?? '', path));
    if (protocol) return this.chat(req, res, path, body, protocol);
    // Model lists and the like: passed on as they are, not counted (they cost nothing).
    return this.passThrough(req, res, path, body);
  }

  private async chat(req: http.IncomingMessage, res: http.ServerResponse, path: string, raw: Buffer, protocol: GatewayProtocol): Promise<void> {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return this.sendError(res, 400, 'The request body is not JSON.');
    }
    const messages = protocol.messagesOf(request);
    const stream = request.stream === true;
    const model = typeof request.model === 'string' ? request.model : 'greenloop';
    const started = Date.now();
    const meter = this.meter ?? closedMeter();
    const admission = await meter.admit(messages, Math.ceil(raw.byteLength / CHARS_PER_TOKEN), protocol.requestedMaxTokens(request));
    if (!admission.forward) {
      protocol.sendFinal(res, { stream, model, text: admission.text });
      meter.record({ answeredBy: admission.why, status: 200, promptTokens: 0, completionTokens: 0, estimated: false, calls: [], answer: admission.text, durationMs: Date.now() - started }, messages, '');
      this.gatewayAnswers += 1;
      const mustStop = admission.why === 'token-budget' || admission.why === 'time-budget' || this.gatewayAnswers > STUBBORN_AFTER;
      if (mustStop && meter === this.meter) this.onStop?.(admission.why);
      return;
    }
    const { outgoing, hideUsageEvents } = protocol.prepare(request, admission.maxTokens);

    const controller = new AbortController();
    this.inFlight.add(controller);
    res.on('close', () => controller.abort());
    let status = 502;
    let tapped: TappedAnswer = { usage: null, text: '', toolCalls: [] };
    try {
      const upstream = await fetch(protocol.upstreamUrl(this.opts.upstream, path), {
        method: 'POST', headers: this.forwardHeaders(req), body: JSON.stringify(outgoing), signal: controller.signal,
      }).catch((err: Error) => {
        if (controller.signal.aborted) return null;
        this.sendError(res, 502, `Greenloop's model gateway could not reach ${this.opts.upstream}: ${err.message}`);
        return null;
      });
      if (!upstream) return;
      status = upstream.status;
      const type = upstream.headers.get('content-type') ?? '';
      if (upstream.ok && type.includes('text/event-stream') && upstream.body) {
        res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        const tap = protocol.streamTap(hideUsageEvents);
        await readSse(upstream.body, (data, event) => {
          if (data === '[DONE]') {
            res.write('data: [DONE]\n\n');
            return 'stop';
          }
          if (tap.take(data, event)) res.write(`${event ? `event: ${event}\n` : ''}data: ${data}\n\n`);
        }).catch(() => undefined);
        tapped = tap.result();
        res.end();
      } else {
        const whole = await readCapped(upstream.body, this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
        const headers: Record<string, string> = { 'content-type': type || 'application/json' };
        const retryAfter = upstream.headers.get('retry-after');
        if (retryAfter) headers['retry-after'] = retryAfter;
        res.writeHead(status, headers);
        res.end(whole.text);
        if (upstream.ok) {
          try {
            tapped = protocol.wholeTap(JSON.parse(whole.text));
          } catch {
            // A malformed answer still cost a request; its tokens are estimated below.
          }
        }
      }
    } finally {
      this.inFlight.delete(controller);
      const estimated = upstream2xx(status) && tapped.usage === null;
      const usage = tapped.usage ?? (upstream2xx(status)
        ? { prompt: Math.ceil(raw.byteLength / CHARS_PER_TOKEN), completion: Math.ceil((tapped.text.length + tapped.toolCalls.join().length) / CHARS_PER_TOKEN) }
        : { prompt: 0, completion: 0 });
      meter.record({
        answeredBy: 'upstream', status, promptTokens: usage.prompt, completionTokens: usage.completion, estimated,
        calls: [], answer: upstream2xx(status) ? answerBrief(tapped) : `HTTP ${status}`, durationMs: Date.now() - started,
      }, messages, tapped.toolCalls.length ? '' : tapped.text);
    }
  }

  private async passThrough(req: http.IncomingMessage, res: http.ServerResponse, path: string, body: Buffer): Promise<void> {
    const upstream = await fetch(this.protocol.upstreamUrl(this.opts.upstream, path), {
      method: req.method, headers: this.forwardHeaders(req), body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
    }).catch((err: Error) => {
      this.sendError(res, 502, `Greenloop's model gateway could not reach ${this.opts.upstream}: ${err.message}`);
      return null;
    });
    if (!upstream) return;
    const whole = await readCapped(upstream.body, this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(whole.text);
  }

  private forwardHeaders(req: http.IncomingMessage): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (HOP_HEADERS.has(name) || value === undefined) continue;
      out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    if (this.opts.apiKey) {
      for (const name of this.protocol.keyHeaderNames) delete out[name];
      Object.assign(out, this.protocol.keyHeaders(this.opts.apiKey));
    }
    return out;
  }

  private sendError(res: http.ServerResponse, status: number, message: string): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(this.protocol.errorBody(status, message)));
  }
}

function upstream2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Requests between attempts (a process the agent left running) are answered, never sent on. */
function closedMeter(): AttemptMeter {
  const meter = new AttemptMeter({ maxRequests: 0, cwd: process.cwd() });
  meter.close();
  return meter;
}

async function readRequestBody(req: http.IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).byteLength;
    if (bytes > maxBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

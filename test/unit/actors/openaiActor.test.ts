import * as assert from 'node:assert/strict';
import { ActorError } from '../../../src/ports/actor';
import type { ActorRequest, ActorResponse } from '../../../src/ports/actor';
import type { Clock } from '../../../src/ports/clock';
import { isAbortError } from '../../../src/base/abort';
import { withRetries } from '../../../src/core/loop/turns/retry';
import { OpenAIActor } from '../../../src/actors/openaiActor';
import type { OpenAIActorOptions } from '../../../src/actors/openaiActor';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer, ScriptStep } from '../../support/fakeOpenAIServer';

const SYSTEM = 'You fix code with SEARCH/REPLACE blocks.';
const PROMPT = 'Attempt 1 of 8. Failing: Calculator > add. Hint: look at the sign.';
const KEY = 'sk-test-SECRET-4242';

function request(signal = new AbortController().signal): ActorRequest {
  return { system: SYSTEM, prompt: PROMPT, iteration: 1, cwd: process.cwd(), signal };
}

function recordingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => 0, sleep: async (ms) => void sleeps.push(ms) };
}

function textOf(res: ActorResponse): string {
  assert.equal(res.kind, 'text');
  return res.kind === 'text' ? res.text : '';
}

async function failure(p: Promise<unknown>): Promise<ActorError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ActorError, `expected an ActorError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the request to fail');
}

describe('OpenAIActor against a real HTTP server', () => {
  let server: FakeOpenAIServer;
  const actor = (opts: Partial<OpenAIActorOptions> = {}) => new OpenAIActor({ baseUrl: server.url, model: 'test-model', apiKey: KEY, ...opts });
  const serve = async (...steps: ScriptStep[]) => {
    server = await startFakeOpenAIServer(steps);
  };
  afterEach(async () => {
    await server?.close();
  });

  describe('answers', () => {
    it('returns the message content and the server counted usage (non-streaming)', async () => {
      await serve({ content: 'src/calc.ts\n<<<<<<< SEARCH\na - b\n=======\na + b\n>>>>>>> REPLACE', usage: { prompt_tokens: 321, completion_tokens: 45 } });
      const res = await actor().propose(request());
      assert.match(textOf(res), /a \+ b/);
      assert.deepEqual(res.usage, { prompt: 321, completion: 45 });
      const sent = server.requests[0];
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
      assert.equal(sent.body.model, 'test-model');
      assert.equal(sent.body.stream, false);
      assert.deepEqual(sent.body.messages, [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: PROMPT },
      ]);
    });

    it('tolerates a trailing slash in the base URL and sends no Authorization without a key', async () => {
      await serve({ content: 'ok', usage: { prompt_tokens: 1, completion_tokens: 1 } });
      const a = new OpenAIActor({ baseUrl: `${server.url}/`, model: 'm', temperature: 0.2 });
      assert.equal(a.label, `openai:m @ ${server.url}`);
      assert.equal(textOf(await a.propose(request())), 'ok');
      assert.equal(server.requests[0].path, '/v1/chat/completions');
      assert.equal(server.requests[0].headers.authorization, undefined);
      assert.equal(server.requests[0].body.temperature, 0.2);
    });

    it('joins streamed deltas and takes usage from the final chunk', async () => {
      const content = 'line one\nline two with a longer tail so it is split into several deltas';
      await serve({ content, usage: { prompt_tokens: 500, completion_tokens: 20 } });
      const res = await actor({ stream: true }).propose(request());
      assert.equal(textOf(res), content);
      assert.deepEqual(res.usage, { prompt: 500, completion: 20 });
      assert.equal(server.requests[0].body.stream, true);
      assert.deepEqual(server.requests[0].body.stream_options, { include_usage: true });
    });

    for (const stream of [false, true]) {
      it(`estimates usage at ~4 characters a token when the server gives none (${stream ? 'streaming' : 'non-streaming'})`, async () => {
        const content = 'x'.repeat(41);
        await serve({ content });
        const res = await actor({ stream }).propose(request());
        assert.equal(textOf(res), content);
        assert.deepEqual(res.usage, {
          prompt: Math.ceil(SYSTEM.length / 4) + Math.ceil(PROMPT.length / 4),
          completion: 11,
          estimated: true,
        });
      });
    }

    it('returns empty content as empty text for the engine to judge', async () => {
      await serve({ content: '', usage: { prompt_tokens: 3, completion_tokens: 0 } });
      assert.equal(textOf(await actor().propose(request())), '');
    });

    it('sends what the token budget leaves as max_tokens, and nothing when there is no budget', async () => {
      await serve({ content: 'a', usage: { prompt_tokens: 1, completion_tokens: 1 } }, { content: 'b', usage: { prompt_tokens: 1, completion_tokens: 1 } });
      const a = actor();
      await a.propose({ ...request(), maxOutputTokens: 700 });
      await a.propose(request());
      assert.equal(server.requests[0].body.max_tokens, 700);
      assert.equal('max_tokens' in server.requests[1].body, false);
    });

    it('switches to max_completion_tokens when the server refuses max_tokens, and remembers it', async () => {
      const refusal = { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error' } };
      await serve({ status: 400, body: refusal }, { content: 'ok', usage: { prompt_tokens: 1, completion_tokens: 1 } }, { content: 'again', usage: { prompt_tokens: 1, completion_tokens: 1 } });
      const a = actor();
      assert.equal(textOf(await a.propose({ ...request(), maxOutputTokens: 500 })), 'ok');
      assert.equal(textOf(await a.propose({ ...request(), maxOutputTokens: 400 })), 'again');
      assert.equal(server.requests.length, 3);
      assert.equal(server.requests[1].body.max_completion_tokens, 500);
      assert.equal('max_tokens' in server.requests[1].body, false);
      assert.equal(server.requests[2].body.max_completion_tokens, 400);
    });

    it('cuts a stream off a little past max_tokens when the server ignores the limit', async () => {
      const content = 'y'.repeat(40_000);
      await serve({ content, chunkChars: 400 });
      const res = await actor({ stream: true }).propose({ ...request(), maxOutputTokens: 100 });
      assert.ok(textOf(res).length < 1000, `kept ${textOf(res).length} characters of a 40,000-character answer`);
      assert.ok(res.usage.completion <= 200, `charged ${res.usage.completion} completion tokens`);
    });

    it('reads a plain JSON reply even when it asked for a stream', async () => {
      const body = { choices: [{ message: { role: 'assistant', content: 'plain' } }], usage: { prompt_tokens: 9, completion_tokens: 2 } };
      await serve({ raw: JSON.stringify(body) });
      const res = await actor({ stream: true }).propose(request());
      assert.equal(textOf(res), 'plain');
      assert.deepEqual(res.usage, { prompt: 9, completion: 2 });
    });
  });

  describe('transient failures and retries', () => {
    it('honours Retry-After seconds on 429 and then succeeds', async () => {
      await serve(
        { status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached.' } } },
        { content: 'after the wait', usage: { prompt_tokens: 1, completion_tokens: 1 } },
      );
      const clock = recordingClock();
      const a = actor();
      const res = await withRetries(() => a.propose(request()), { clock });
      assert.equal(textOf(res), 'after the wait');
      assert.deepEqual(clock.sleeps, [7000]);
      assert.equal(server.requests.length, 2);
    });

    it('reads Retry-After given as an HTTP date', async () => {
      await serve({ status: 429, headers: { 'retry-after': new Date(Date.now() + 10_000).toUTCString() } });
      const err = await failure(actor().propose(request()));
      assert.equal(err.kind, 'transient');
      assert.ok(err.retryAfterMs !== undefined && err.retryAfterMs > 8000 && err.retryAfterMs <= 10_000, `retryAfterMs ${err.retryAfterMs}`);
      assert.match(err.message, /rate-limiting requests \(429\)/);
    });

    it('retries a 500 and returns the next answer', async () => {
      await serve({ status: 500 }, { content: 'second time lucky' });
      const clock = recordingClock();
      const a = actor();
      assert.equal(textOf(await withRetries(() => a.propose(request()), { clock })), 'second time lucky');
      assert.equal(clock.sleeps.length, 1);
    });

    it('turns three 5xx answers into one fatal error after 2 retries (server errors get two)', async () => {
      await serve({ status: 502 }, { status: 503 }, { status: 500, body: { error: { message: 'Overloaded, try later.' } } }, { status: 500 });
      const clock = recordingClock();
      const a = actor();
      const err = await failure(withRetries(() => a.propose(request()), { clock }));
      assert.equal(err.kind, 'fatal');
      assert.equal(err.message, 'The model server kept failing after 2 retries: The model server failed (500): Overloaded, try later.');
      assert.equal(server.requests.length, 3);
      assert.equal(server.remaining(), 1);
    });

    it('retries 429 three times, honouring Retry-After, then stops', async () => {
      await serve(...[1, 2, 3, 4].map(() => ({ status: 429, headers: { 'Retry-After': '2' } })));
      const clock = recordingClock();
      const a = actor();
      const err = await failure(withRetries(() => a.propose(request()), { clock }));
      assert.equal(err.kind, 'fatal');
      assert.match(err.message, /after 3 retries: The model server is rate-limiting requests \(429\)/);
      assert.deepEqual(clock.sleeps, [2000, 2000, 2000]);
      assert.equal(server.requests.length, 4);
    });

    for (const [status, body] of [[400, 'bad request'], [403, 'forbidden'], [404, 'no such model']] as const) {
      it(`stops at once on ${status}: a deterministic refusal is never tried again`, async () => {
        await serve({ status, body: { error: { message: body } } }, { content: 'never asked' });
        const clock = recordingClock();
        const a = actor();
        const err = await failure(withRetries(() => a.propose(request()), { clock }));
        assert.equal(err.kind, 'fatal');
        assert.match(err.message, new RegExp(`refused the request \\(${status}\\): ${body}`));
        assert.equal(server.requests.length, 1);
        assert.deepEqual(clock.sleeps, []);
      });
    }

    it('treats a request that outlives its timeout as transient', async () => {
      await serve({ delayMs: 3000 });
      const err = await failure(actor({ requestTimeoutMs: 200 }).propose(request()));
      assert.equal(err.kind, 'transient');
      assert.equal(err.message, 'The model server sent nothing for 200 ms; the request was abandoned.');
    });

    it('stops at once on a body that is not JSON: a malformed answer does not mend itself', async () => {
      await serve({ raw: '<html>502 Bad Gateway</html>' }, { content: 'never asked' });
      const clock = recordingClock();
      const a = actor();
      const err = await failure(withRetries(() => a.propose(request()), { clock }));
      assert.equal(err.kind, 'fatal');
      assert.equal(err.category, 'deterministic');
      assert.match(err.message, /reply is not JSON/);
      assert.equal(server.requests.length, 1);
    });

    it('treats a connection dropped mid-stream as transient', async () => {
      await serve({ dropConnection: true, partialContent: 'half an ans' });
      const err = await failure(actor({ stream: true }).propose(request()));
      assert.equal(err.kind, 'transient');
    });

    it('stops on a garbled stream event, and retries an error event mid-stream', async () => {
      const sse = 'text/event-stream';
      await serve(
        { raw: 'data: {"choices":[{"delta":{"content":"hal"}}]}\n\ndata: {garbled\n\n', contentType: sse },
        { raw: 'data: {"error":{"message":"Model overloaded"}}\n\n', contentType: sse },
      );
      const a = actor({ stream: true });
      const garbled = await failure(a.propose(request()));
      assert.equal(garbled.kind, 'fatal');
      assert.match(garbled.message, /stream event that is not JSON/);
      const overloaded = await failure(a.propose(request()));
      assert.equal(overloaded.kind, 'transient');
      assert.equal(overloaded.category, 'server');
      assert.equal(overloaded.message, 'The model server reported an error mid-answer: Model overloaded.');
    });

    it('treats a non-streamed body cut short, and a socket closed before any reply, as transient', async () => {
      await serve({ dropConnection: true, partialContent: 'a long answer that never fully arrives' }, { dropConnection: true });
      const a = actor();
      const cut = await failure(a.propose(request()));
      assert.equal(cut.kind, 'transient');
      const hungUp = await failure(a.propose(request()));
      assert.equal(hungUp.kind, 'transient');
      assert.match(hungUp.message, /connection to the model server failed/);
    });

    it('treats a refused connection as transient and says to check the server', async () => {
      await serve();
      const a = actor();
      await server.close();
      const err = await failure(a.propose(request()));
      assert.equal(err.kind, 'transient');
      assert.match(err.message, /connection refused\); check that it is running\.$/);
    });

    it('says so when the scripted server has run out of steps', async () => {
      await serve({ content: 'only one' });
      const a = actor();
      await a.propose(request());
      const err = await failure(a.propose(request()));
      assert.match(err.message, /ran out of steps after 1 answers/);
      assert.equal(server.overruns, 1);
    });
  });

  describe('fatal failures', () => {
    it('stops at once on 401 with the server message and never retries it', async () => {
      await serve({ status: 401, body: { error: { message: 'Invalid API key.', type: 'invalid_request_error' } } }, { content: 'never sent' });
      const clock = recordingClock();
      const a = actor();
      const err = await failure(withRetries(() => a.propose(request()), { clock }));
      assert.equal(err.kind, 'fatal');
      assert.equal(err.message, 'The model server refused the request (401): Invalid API key.');
      assert.equal(server.requests.length, 1);
      assert.deepEqual(clock.sleeps, []);
    });

    it('passes on an Ollama-style 404 message about the model', async () => {
      await serve({ status: 404, body: { error: 'model "nope" not found, try pulling it first' } });
      const err = await failure(actor().propose(request()));
      assert.equal(err.kind, 'fatal');
      assert.equal(err.message, 'The model server refused the request (404): model "nope" not found, try pulling it first.');
    });

    it('gives a hint when a 4xx carries no message', async () => {
      await serve({ status: 404, body: '' });
      const err = await failure(actor().propose(request()));
      assert.equal(err.message, 'The model server refused the request (404); check the base URL (it usually ends in /v1) and the model name.');
    });

    it('treats well-formed JSON without choices as fatal', async () => {
      await serve({ raw: JSON.stringify({ object: 'list', data: [] }) });
      const err = await failure(actor().propose(request()));
      assert.equal(err.kind, 'fatal');
      assert.match(err.message, /reply has no choices; check that .* is an OpenAI-compatible Chat Completions endpoint\.$/);
    });

    it('never echoes the API key, even when the server quotes it', async () => {
      await serve({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}. You can find your key at example.com.` } } });
      const err = await failure(actor().propose(request()));
      assert.ok(!err.message.includes(KEY), err.message);
      assert.ok(!String(err.stack).includes(KEY));
      assert.match(err.message, /Incorrect API key provided: \*\*\*/);
    });

    it('refuses a base URL that is not http(s) with one clear sentence', () => {
      assert.throws(() => new OpenAIActor({ baseUrl: 'localhost:11434', model: 'm' }), /is not an http\(s\) URL; pass one like http:\/\/127\.0\.0\.1:11434\/v1\./);
    });
  });

  describe('cancellation', () => {
    for (const stream of [false, true]) {
      it(`an abort signal ends a slow request promptly as an abort, not a failure (${stream ? 'streaming' : 'non-streaming'})`, async () => {
        await serve({ delayMs: 20_000 });
        const controller = new AbortController();
        const started = Date.now();
        setTimeout(() => controller.abort(), 100);
        await assert.rejects(actor({ stream, requestTimeoutMs: 60_000 }).propose(request(controller.signal)), (err: unknown) => isAbortError(err));
        // The server holds its answer 20 s: ending well before that is "promptly" on any machine.
        assert.ok(Date.now() - started < 10_000, 'the request was not cancelled promptly');
      });
    }
  });
});

import * as assert from 'assert';
import { CancellationError, fake, LanguageModelChatMessage, LanguageModelError } from '../support/fakeVscode';
import { LmActor } from '../../../../src/extension/models/lmActor';
import { ActorError, AnswerTooLarge } from '../../../../src/ports/actor';
import type { ActorRequest } from '../../../../src/ports/actor';
import type * as vscode from 'vscode';

interface Token { isCancellationRequested: boolean; onCancellationRequested(l: () => void): { dispose(): void } }

/** A chat model that counts one token per word and answers with scripted chunks (or a scripted failure). */
class FakeChatModel {
  readonly id = 'fake-1';
  readonly vendor = 'test';
  readonly family = 'fake';
  readonly version = '1';
  readonly name = 'Fake Model';
  maxInputTokens = 10_000;
  sent: LanguageModelChatMessage[][] = [];
  lastToken: Token | undefined;
  counted: string[] = [];
  constructor(private readonly answer: string[] | Error, private readonly slow = false) {}

  async countTokens(input: string | LanguageModelChatMessage): Promise<number> {
    const text = typeof input === 'string' ? input : input.content;
    this.counted.push(text);
    return text.split(/\s+/).filter(Boolean).length;
  }

  async sendRequest(messages: LanguageModelChatMessage[], _opts: unknown, token: Token) {
    this.sent.push(messages);
    this.lastToken = token;
    if (this.answer instanceof Error) throw this.answer;
    const chunks = this.answer;
    const slow = this.slow;
    return {
      text: (async function* () {
        for (const c of chunks) {
          if (slow) await new Promise((r) => setTimeout(r, 20));
          if (token.isCancellationRequested) throw new CancellationError();
          yield c;
        }
      })(),
    };
  }
}

function request(signal = new AbortController().signal): ActorRequest {
  return { prompt: 'fix the failing test please', system: 'you edit code', iteration: 1, cwd: '/tmp', signal };
}

const actorFor = (m: FakeChatModel) => new LmActor(m as unknown as vscode.LanguageModelChat);

describe('vscode.lm actor', () => {
  it('sends the instructions and prompt, returns the whole answer and counts tokens with the model', async () => {
    const model = new FakeChatModel(['Here is ', 'the fix: ', 'a b c']);
    const actor = actorFor(model);
    assert.strictEqual(actor.label, 'vscode-lm:test/fake-1');
    const res = await actor.propose(request());
    assert.deepStrictEqual(res, { kind: 'text', text: 'Here is the fix: a b c', usage: { prompt: 8, completion: 7 } });
    assert.strictEqual(model.sent[0].length, 1);
    assert.strictEqual(model.sent[0][0].content, 'you edit code\n\nfix the failing test please');
  });

  it('refuses, without sending, a prompt larger than the model accepts', async () => {
    const model = new FakeChatModel(['x']);
    model.maxInputTokens = 5;
    await assert.rejects(actorFor(model).propose(request()), (err: Error) => {
      assert.ok(err instanceof ActorError && err.kind === 'fatal');
      assert.match(err.message, /The prompt \(8 tokens\) is larger than Fake Model's input limit \(5\)/);
      return true;
    });
    assert.strictEqual(model.sent.length, 0);
  });

  const cases: [string, Error, 'fatal' | 'transient', RegExp][] = [
    ['no permission', LanguageModelError.NoPermissions('denied'), 'fatal', /Greenloop may not use Fake Model: allow it when VS Code asks/],
    ['model gone', LanguageModelError.NotFound('gone'), 'fatal', /no longer available; choose another with "Greenloop: Select model"/],
    ['rate limit', LanguageModelError.Blocked('quota exceeded'), 'transient', /refused the request for now \(rate limit or quota\): quota exceeded/],
    ['context too long', new Error('Message exceeds token limit'), 'fatal', /rejected the prompt as too large/],
    ['network blip', new Error('socket hang up'), 'transient', /Fake Model failed: socket hang up/],
  ];
  for (const [what, error, kind, message] of cases) {
    it(`maps ${what} to a ${kind} ActorError`, async () => {
      await assert.rejects(actorFor(new FakeChatModel(error)).propose(request()), (err: Error) => {
        assert.ok(err instanceof ActorError, `${err.name}: ${err.message}`);
        assert.strictEqual(err.kind, kind);
        assert.match(err.message, message);
        return true;
      });
    });
  }

  it('cancels the model request when the run is stopped and reports an abort, not a failure', async () => {
    // 3,000 chunks at least 20 ms apart: a minute of answer, so the stop always lands while it streams.
    const model = new FakeChatModel(Array.from({ length: 3000 }, () => 'a '), true);
    const controller = new AbortController();
    const pending = actorFor(model).propose(request(controller.signal));
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(pending, (err: Error) => {
      assert.strictEqual(err.name, 'AbortError');
      return true;
    });
    assert.strictEqual(model.lastToken?.isCancellationRequested, true);
  });

  it('stops reading an endless answer at the size cap, cancels the model, and reports it as too large', async () => {
    let yielded = 0;
    const model = new FakeChatModel([]);
    model.sendRequest = async (_messages, _opts, token) => {
      model.lastToken = token;
      return {
        text: (async function* () {
          for (;;) {
            if (token.isCancellationRequested) throw new CancellationError();
            yielded++;
            yield 'x'.repeat(64 * 1024);
          }
        })(),
      };
    };
    const req = { ...request(), maxAnswerBytes: 1_000_000 };
    await assert.rejects(actorFor(model).propose(req), (err: Error) => {
      assert.ok(err instanceof AnswerTooLarge, `${err.name}: ${err.message}`);
      assert.match(err.message, /^The answer was larger than 1,000,000 bytes/);
      assert.strictEqual(err.usage.prompt, 8);
      return true;
    });
    assert.strictEqual(model.lastToken?.isCancellationRequested, true);
    assert.strictEqual(yielded, Math.floor(1_000_000 / (64 * 1024)) + 1, 'not one chunk more than the cap needed');
  });

  it('before the first test run, says in one sentence that the chosen model is no longer offered, without a request', async () => {
    const model = new FakeChatModel(['unused']);
    const actor = new LmActor(model as unknown as vscode.LanguageModelChat);
    fake.chatModels = [model];
    await actor.check(new AbortController().signal);
    fake.chatModels = [];
    await assert.rejects(actor.check(new AbortController().signal), (err: ActorError) =>
      err instanceof ActorError && err.kind === 'fatal' && /^The model Fake Model is no longer available; choose another with "Greenloop: Select model"\.$/.test(err.message));
    assert.strictEqual(model.sent.length, 0);
  });
});

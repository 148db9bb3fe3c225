// A model server cannot make a run hold unbounded memory or time: answers over the size cap are refused as invalid
// proposals, a huge error body is read only as far as its first words, a server that drips bytes is stopped by the
// request timeout and by the run's deadline, and Ctrl-C ends a run at once — through the real CLI on loopback.
import * as assert from 'assert';
import { treeBytes } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';
import { slowToReadAnswer } from '../../support/adversarialAnswers';

const MB = 1024 * 1024;

describe('greenloop fix stays bounded against a misbehaving model server (real CLI)', function () {
  this.timeout(200_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  it('refuses a JSON answer over the default 2 MB cap as an invalid proposal, stops reading it, and goes on', async () => {
    // The 2 MB read are charged (~500,000 tokens, estimated): more than the default token budget.
    const res = await h.fix([{ huge: { bytes: 64 * MB } }, answer(FIX_ADD), answer(FIX_MUL)], ['--max-tokens', '0']);
    assert.strictEqual(res.code, 0, res.stderr);
    const first = res.report.iterations[0];
    assert.strictEqual(first.tokens.completion, 500_000);
    assert.strictEqual(first.verdict, 'invalid-proposal');
    assert.match(first.note, /^The answer was larger than 2,000,000 bytes \(--max-answer-bytes[^\n]*\.$/);
    assert.ok(first.note.length < 300, first.note);
    assert.ok(h.server.sentBytes[0] < 32 * MB, `the client read ${h.server.sentBytes[0]} bytes of a 64 MB answer`);
    assert.match(h.prompt(1), /larger than 2,000,000 bytes/, 'the model is told why its answer was refused');
    assert.deepStrictEqual(res.report.iterations.map((it: { verdict: string }) => it.verdict), ['invalid-proposal', 'progress', 'green']);
  });

  it('refuses a streamed answer over --max-answer-bytes as an invalid proposal, stops reading it, and goes on', async () => {
    const res = await h.fix([{ huge: { bytes: 64 * MB } }, answer(FIX_ADD), answer(FIX_MUL)], ['--max-answer-bytes', '500000'], { stream: true });
    assert.strictEqual(res.code, 0, res.stderr);
    const first = res.report.iterations[0];
    assert.strictEqual(first.verdict, 'invalid-proposal');
    assert.match(first.note, /^The answer was larger than 500,000 bytes \(--max-answer-bytes[^\n]*\.$/);
    assert.ok(h.server.sentBytes[0] < 32 * MB, `the client read ${h.server.sentBytes[0]} bytes of a 64 MB stream`);
    assert.strictEqual(res.report.outcome, 'green');
  });

  it('reads only the first words of a huge error body: the retry line is one short sentence and the run goes on', async () => {
    const res = await h.fix([{ huge: { bytes: 64 * MB, status: 500, filler: 'upstream exploded ' } }, answer(FIX_ADD), answer(FIX_MUL)]);
    assert.strictEqual(res.code, 0, res.stderr);
    const retry = res.stderr.split('\n').find((l) => /— retry 1 in/.test(l));
    assert.ok(retry, res.stderr.slice(0, 2000));
    assert.match(retry, /^greenloop: attempt 1: The model server failed \(500\): upstream exploded upstream exploded [^\n]{0,300}\. — retry 1 in [\d.]+ s$/);
    assert.ok(h.server.sentBytes[0] < 32 * MB, `the client read ${h.server.sentBytes[0]} bytes of a 64 MB error body`);
    assert.strictEqual(res.report.outcome, 'green');
    assert.strictEqual(res.report.requests, 3);
  });

  for (const stream of [true, false]) {
    it(`stops a server that drips a byte a second at the request timeout, retries, and goes on (${stream ? 'SSE' : 'JSON'})`, async () => {
      const res = await h.fix([{ drip: { intervalMs: 1000 } }, answer(FIX_ADD), answer(FIX_MUL)], ['--request-timeout-s', '5'], { stream, timeoutMs: 90_000 });
      assert.strictEqual(res.code, 0, res.stderr);
      assert.match(res.stderr, /attempt 1: The model server sent only \d+ bytes in 5 s; the request was abandoned\. — retry 1 in/);
      assert.strictEqual(res.report.outcome, 'green');
      assert.ok(h.server.sentBytes[0] < 15, `the drip went on for ${h.server.sentBytes[0]} bytes`);
    });
  }

  it('stops a dripping answer at the request timeout, then its retry, still streaming, at the run deadline (budget-time)', async () => {
    const before = treeBytes(h.project);
    // The retry streams without a pause, so no request timeout ends it: only the deadline can, however busy the
    // machine (a run of dripping answers would instead run out of retries at a time that depends on its speed).
    // 45 s: room for the baseline and the abandoned first request on a busy machine (5 s for the first byte, as a
    // loaded machine may take 2 s to deliver headers); the retry would stream for 2 minutes or more.
    const script = [{ drip: { intervalMs: 1000 } }, { content: 'x'.repeat(40_000), chunkChars: 1 }];
    const res = await h.fix(script, ['--max-minutes', '0.75', '--request-timeout-s', '5'], { stream: true, timeoutMs: 150_000 });
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(res.report.outcome, 'escalated');
    assert.strictEqual(res.report.reason, 'budget-time');
    assert.strictEqual(res.report.requests, 2, 'the first drip abandoned, the retry stopped at the deadline');
    assert.match(res.stderr, /The model server sent only \d+ bytes in 5 s; the request was abandoned\./);
    assert.deepStrictEqual(treeBytes(h.project), before);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while a retried request drips cancels the run at once, with a report and the workspace as it was`, async () => {
      const before = treeBytes(h.project);
      // The first drip is abandoned at the 5 s request timeout; the signal comes while the retry drips.
      const run = h.startFix([{ drip: { intervalMs: 1000 } }, { drip: { intervalMs: 1000 } }], ['--request-timeout-s', '5'], { stream: true, timeoutMs: 80_000 });
      await h.server.started(2);
      run.child.kill(signal);
      const res = await run.done;
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.outcome, 'cancelled');
      assert.strictEqual(res.report.requests, 2);
      assert.deepStrictEqual(treeBytes(h.project), before);
    });
  }

  it('Ctrl-C right after an answer built to be slow to read cancels the run at once: reading it never blocks Stop', async () => {
    const before = treeBytes(h.project);
    // Whether the signal lands while the answer is read or while the next request drips, the run must end now.
    const run = h.startFix([answer(slowToReadAnswer()), { drip: { intervalMs: 1000 } }], ['--request-timeout-s', '60'], { timeoutMs: 50_000 });
    await h.server.answered(1);
    run.child.kill('SIGINT');
    const res = await run.done;
    assert.strictEqual(res.code, 1, res.stderr.slice(0, 2000));
    assert.strictEqual(res.report.outcome, 'cancelled');
    assert.deepStrictEqual(treeBytes(h.project), before);
  });
});

import * as assert from 'node:assert/strict';
import { ActorError } from '../../../../../src/ports/actor';
import type { Clock } from '../../../../../src/ports/clock';
import { isAbortError } from '../../../../../src/base/abort';
import { RetryOutlastsBudget, withRetries } from '../../../../../src/core/loop/turns/retry';
import { systemClock } from '../../../../../src/base/systemClock';
import type { ActorErrorCategory } from '../../../../../src/ports/actor';

/** A Clock that records every wait and returns at once, so backoff can be checked without waiting. */
function recordingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
}

const transient = (msg = 'The model server failed (503).', retryAfterMs?: number) => new ActorError(msg, 'transient', retryAfterMs);

describe('withRetries', () => {
  it('returns the first success without waiting', async () => {
    const clock = recordingClock();
    const result = await withRetries(async (attempt) => `answer ${attempt}`, { clock });
    assert.equal(result, 'answer 0');
    assert.deepEqual(clock.sleeps, []);
  });

  it('retries transient failures with growing, jittered waits and then succeeds', async () => {
    const clock = recordingClock();
    const retried: Array<[number, number]> = [];
    const result = await withRetries(
      async (attempt) => {
        if (attempt < 3) throw transient();
        return 'ok';
      },
      { clock, baseMs: 1000, maxMs: 30_000, onRetry: (_e, attempt, delay) => retried.push([attempt, delay]) },
    );
    assert.equal(result, 'ok');
    assert.equal(clock.sleeps.length, 3);
    // Each wait lies in [step/2, step] for step = base * 2^n.
    clock.sleeps.forEach((ms, n) => {
      const step = 1000 * 2 ** n;
      assert.ok(ms >= step / 2 && ms <= step, `wait ${n} was ${ms} ms, outside [${step / 2}, ${step}]`);
    });
    assert.deepEqual(retried.map(([a]) => a), [1, 2, 3]);
    assert.deepEqual(retried.map(([, d]) => d), clock.sleeps);
  });

  it('caps every wait at maxMs', async () => {
    const clock = recordingClock();
    await withRetries(
      async (attempt) => {
        if (attempt < 3) throw transient();
        return 'ok';
      },
      { clock, baseMs: 10_000, maxMs: 15_000, random: () => 0.999 },
    );
    assert.ok(clock.sleeps.every((ms) => ms <= 15_000), `waits ${clock.sleeps.join(', ')}`);
    assert.ok(clock.sleeps[2] > 14_900, `the last wait was ${clock.sleeps[2]} ms, not close to the 15 s cap`);
  });

  it('waits exactly as long as the server asked (Retry-After), capped at maxMs', async () => {
    const clock = recordingClock();
    let calls = 0;
    await withRetries(
      async () => {
        calls++;
        if (calls === 1) throw transient('rate limited', 7000);
        if (calls === 2) throw transient('rate limited', 120_000);
        return 'ok';
      },
      { clock, maxMs: 30_000 },
    );
    assert.deepEqual(clock.sleeps, [7000, 30_000]);
  });

  it('gives up after 3 retries with a fatal error naming the last failure', async () => {
    const clock = recordingClock();
    let calls = 0;
    await assert.rejects(
      withRetries(async () => {
        calls++;
        throw transient(`The model server failed (500): boom ${calls}.`);
      }, { clock }),
      (err: unknown) => {
        assert.ok(err instanceof ActorError);
        assert.equal(err.kind, 'fatal');
        assert.equal(err.message, 'The model server kept failing after 3 retries: The model server failed (500): boom 4.');
        return true;
      },
    );
    assert.equal(calls, 4);
  });

  it('never retries a fatal error or a foreign error', async () => {
    const clock = recordingClock();
    let calls = 0;
    const fatal = new ActorError('The model server refused the request (401): Invalid API key.', 'fatal');
    await assert.rejects(withRetries(async () => { calls++; throw fatal; }, { clock }), (e) => e === fatal);
    const bug = new TypeError('x is undefined');
    await assert.rejects(withRetries(async () => { calls++; throw bug; }, { clock }), (e) => e === bug);
    assert.equal(calls, 2);
    assert.deepEqual(clock.sleeps, []);
  });

  it('stops waiting at once when cancelled during a backoff (real clock)', async () => {
    const controller = new AbortController();
    let calls = 0;
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      withRetries(async () => { calls++; throw transient('rate limited', 20_000); }, { clock: systemClock, signal: controller.signal }),
      (err: unknown) => isAbortError(err),
    );
    assert.equal(calls, 1);
    // Half the 20 s backoff: ended by the cancel, on any machine.
    assert.ok(Date.now() - started < 10_000, 'the 20 s backoff was not interrupted');
  });

  it('does not call the function at all when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    await assert.rejects(withRetries(async () => { calls++; return 1; }, { signal: controller.signal }), isAbortError);
    assert.equal(calls, 0);
  });

  describe('a cap per kind of failure', () => {
    const failing = (category: ActorErrorCategory, kind: 'transient' | 'fatal' = 'transient') => {
      let calls = 0;
      const fn = async () => {
        calls++;
        throw new ActorError(`failure ${calls}`, kind, undefined, category);
      };
      return { fn, calls: () => calls };
    };

    for (const [category, retries] of [['rate-limit', 3], ['timeout', 3], ['network', 3], ['server', 2]] as const) {
      it(`${category}: ${retries} retries, then one fatal error that names the kind of failure`, async () => {
        const f = failing(category);
        await assert.rejects(withRetries(f.fn, { clock: recordingClock() }), (err: unknown) => {
          assert.ok(err instanceof ActorError);
          assert.equal(err.kind, 'fatal');
          assert.equal(err.category, category);
          assert.match(err.message, new RegExp(`after ${retries} retries: failure ${retries + 1}\\.$`));
          return true;
        });
        assert.equal(f.calls(), retries + 1);
      });
    }

    it('a deterministic failure (400/401/403/404, a malformed body) is never tried again', async () => {
      const f = failing('deterministic', 'transient');
      const clock = recordingClock();
      await assert.rejects(withRetries(f.fn, { clock }), /is not retried: failure 1/);
      assert.equal(f.calls(), 1);
      assert.deepEqual(clock.sleeps, []);
    });

    it('counts each kind on its own: two 5xx and three 429 in one call are all retried', async () => {
      const script: ActorErrorCategory[] = ['server', 'rate-limit', 'server', 'rate-limit', 'rate-limit'];
      let calls = 0;
      const result = await withRetries(async () => {
        const category = script[calls++];
        if (category) throw new ActorError(category, 'transient', undefined, category);
        return 'answer';
      }, { clock: recordingClock() });
      assert.equal(result, 'answer');
      assert.equal(calls, 6);
    });
  });

  describe('never outlasting the time budget', () => {
    it('does not start a wait (Retry-After 20 s) when only 5 s are left, and says why', async () => {
      const clock = recordingClock();
      let calls = 0;
      await assert.rejects(
        withRetries(async () => { calls++; throw transient('The model server is rate-limiting requests (429).', 20_000); }, { clock, deadline: { remainingMs: () => 5000 } }),
        (err: unknown) => {
          assert.ok(err instanceof RetryOutlastsBudget);
          assert.match(err.message, /waiting 20 s to try again would outlast the time budget \(5 s left\)/);
          return true;
        },
      );
      assert.equal(calls, 1);
      assert.deepEqual(clock.sleeps, []);
    });

    it('waits when the budget has room for it', async () => {
      const clock = recordingClock();
      let calls = 0;
      const out = await withRetries(async () => {
        if (calls++ === 0) throw transient('429', 1000);
        return 'ok';
      }, { clock, deadline: { remainingMs: () => 60_000 } });
      assert.equal(out, 'ok');
      assert.deepEqual(clock.sleeps, [1000]);
    });
  });
});

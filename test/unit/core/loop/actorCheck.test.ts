// The model check before the first test run cannot outlive the run's deadline or its own bound, even when the actor
// never looks at its signal (a fetch stuck in a DNS lookup, an SDK that ignores cancellation). In-process, with the
// real engine, verifier and snapshots; the verdicts are reasons, clocks only generous upper bounds.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { checkActorWithin } from '../../../../src/core/loop/actorCheck';
import { RunDeadline } from '../../../../src/core/loop/bounds/deadline';
import { LoopEngine } from '../../../../src/core/loop/engine';
import { ActorError } from '../../../../src/ports/actor';
import type { Actor, ActorResponse } from '../../../../src/ports/actor';
import { isAbortError } from '../../../../src/base/abort';
import { systemClock } from '../../../../src/base/systemClock';
import { createRedactor } from '../../../../src/base/redact';
import { DEFAULT_LOOP_CONFIG } from '../../../../src/session/loopDefaults';
import { CommandVerifier } from '../../../../src/verify/commandVerifier';
import { openSnapshotStore } from '../../../../src/snapshot/gitSnapshotStore';
import { tempDir, tempProject } from '../../support/cli';

/** An actor whose check does whatever `check` does; it is never asked for a proposal in these tests. */
function actorWithCheck(check: (signal: AbortSignal) => Promise<void>): Actor & { checks: number } {
  const actor = {
    label: 'stuck-model',
    checks: 0,
    propose: async (): Promise<ActorResponse> => {
      throw new Error('no proposal was expected');
    },
    check: (signal: AbortSignal) => {
      actor.checks++;
      return check(signal);
    },
  };
  return actor;
}

/** Never settles, whatever its signal says. */
const deaf = () => new Promise<void>(() => undefined);

describe('the model check is bounded by the deadline and its own bound, whatever the actor does', function () {
  this.timeout(60_000);

  function deadlineIn(ms: number | null, outer = new AbortController().signal): RunDeadline {
    return new RunDeadline(systemClock, outer, ms === null ? null : systemClock.now() + ms);
  }

  it('a check that ignores its signal ends at the deadline: budget-time', async () => {
    const deadline = deadlineIn(200);
    const stop = await checkActorWithin(actorWithCheck(deaf), { deadline, cancel: new AbortController().signal, clock: systemClock, maxMinutes: 0.01 });
    deadline.dispose();
    assert.deepStrictEqual(stop, { reason: 'budget-time', text: 'The time budget (0.01 min) ran out while the model was checked, before the first test run; nothing was changed.' });
  });

  it('a check that ignores its signal ends at its own bound when no deadline comes first: actor-error naming the model', async () => {
    const deadline = deadlineIn(null);
    const stop = await checkActorWithin(actorWithCheck(deaf), { deadline, cancel: new AbortController().signal, clock: systemClock, maxMinutes: 0, boundMs: 200 });
    deadline.dispose();
    assert.strictEqual(stop?.reason, 'actor-error');
    assert.strictEqual(stop?.text, "The model (stuck-model) did not answer Greenloop's check within 200 ms; check that it is running and reachable.");
  });

  it("the person's cancel during the check is theirs: it rejects as an abort, not as a verdict on the model", async () => {
    const person = new AbortController();
    const deadline = deadlineIn(null, person.signal);
    const checking = checkActorWithin(actorWithCheck(deaf), { deadline, cancel: person.signal, clock: systemClock, maxMinutes: 0 });
    person.abort();
    await assert.rejects(checking, (err: Error) => isAbortError(err));
    deadline.dispose();
  });

  it("the actor's own refusal is told in its own sentence; a check that passes lets the run go on", async () => {
    const deadline = deadlineIn(null);
    const bounds = { deadline, cancel: new AbortController().signal, clock: systemClock, maxMinutes: 0 };
    const refused = await checkActorWithin(actorWithCheck(async () => {
      throw new ActorError('The model server refused the request (401): bad key.', 'fatal');
    }), bounds);
    assert.deepStrictEqual(refused, { reason: 'actor-error', text: 'The model server refused the request (401): bad key.' });
    assert.strictEqual(await checkActorWithin(actorWithCheck(async () => undefined), bounds), null);
    deadline.dispose();
  });

  it('the engine ends a run whose model check never returns at the deadline, with a state and without running the tests', async () => {
    const project = tempProject('calc');
    const stateDir = tempDir('check-engine');
    try {
      const marker = path.join(stateDir, 'tests-ran');
      const config = { ...DEFAULT_LOOP_CONFIG, maxMinutes: 0.02 };
      const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: config.snapshotExcludes });
      const verifier = new CommandVerifier({ cwd: project, testCommand: `touch ${JSON.stringify(marker)} && node --test test/`, tsc: 'off', timeoutMs: 60_000 });
      const actor = actorWithCheck(deaf);
      const engine = new LoopEngine({ cwd: project, actor, verifier, snapshots, clock: systemClock, config, redactor: createRedactor([]) });
      const state = await engine.run(new AbortController().signal);
      assert.strictEqual(state.outcome, 'escalated');
      assert.strictEqual(state.reason, 'budget-time');
      assert.strictEqual(state.iterations.length, 0);
      assert.strictEqual(actor.checks, 1);
      assert.ok(!fs.existsSync(marker), 'the tests never ran');
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

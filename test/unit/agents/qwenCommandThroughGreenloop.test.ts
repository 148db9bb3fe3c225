// The real qwen CLI run the way a person who names no preset runs it — `greenloop fix --actor command --actor-cmd
// "qwen --yolo" --agent-upstream URL` — against a scripted model that is stuck in a way no two requests show: each
// repeat of its wrong edit appends the same comment once more, so every edit result is new while every `npm test`
// the agent runs fails the same tests (issue 22). The gateway must see the stall from the test runs themselves. And one
// that reads the file before each try of the same wrong edit, which fails from its second try, so its test runs after
// the first see the very same files (issue 30): the first such run ends the attempt. And one that reads, makes the very
// same growing edit and tests, every round (issue 38): the same call again, after a test run that failed the same way,
// ends the attempt; the next attempt making the same calls ends the run. A counter it increments is never cut short.
import * as assert from 'node:assert/strict';
import { runWithGreenloop } from '../../../bench/agents/withGreenloop';
import {
  fixesOneAtATimeAfterASlip, oneFixThenGrowingEdit, oneFixThenGrowingEditRereading, oneFixThenStuckRereading, sameGrowingEditForever,
  sameGrowingEditRereading, sameWrongEditRereading,
} from '../../support/agentScenarios';
import { countsToThree, TALLY_FIXTURE } from '../../support/repeatScenarios';
import { installQwen } from '../../support/qwenAgent';
import { ensureCliBuilt } from '../support/cli';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

describe('greenloop fix --actor command --actor-cmd "qwen --yolo" (a stuck agent whose steps never repeat)', function () {
  // Verdicts are counts (requests, attempts, failing tests); this limit only catches a hang (see agentTimeouts.ts).
  this.timeout(REAL_AGENT_TEST_MS);
  let qwenBin = '';

  before(async function () {
    ensureCliBuilt();
    try {
      qwenBin = await installQwen();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  const run = (scenario: Parameters<typeof runWithGreenloop>[0], fixture?: string) => runWithGreenloop(scenario, { qwenBin, plainCommand: true, fixture });
  const stops = (r: Awaited<ReturnType<typeof run>>) => r.report.iterations.map((it: { agent?: { stoppedBy: string | null } }) => it.agent?.stoppedBy ?? null);

  it('stops the same growing wrong edit within 14 requests, told by its own test runs', async () => {
    const r = await run(sameGrowingEditForever());
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    assert.ok(r.report.requests <= 14, `${r.report.requests} requests (stopped by: ${stops(r).join(', ')})`);
    assert.equal(r.failingAtEnd, r.failingAtStart);
    // Its second test run follows the same edit call and fails as the first did (issue 38; issue 22's tests-stalled before).
    assert.equal(stops(r)[0], 'repeated-tool-call');
    assert.equal(r.report.requests, r.served.requests, 'report requests = requests the model served');
  });

  it('keeps the one real fix, then stops the growing wrong edit within 21 requests', async () => {
    const r = await run(oneFixThenGrowingEdit());
    assert.equal(r.failingAtEnd, 2, r.stderr);
    assert.equal(r.report.iterations[0].verdict, 'progress');
    assert.ok(r.report.requests <= 21, `${r.report.requests} requests (stopped by: ${stops(r).join(', ')})`);
    assert.equal(r.report.requests, r.served.requests);
  });

  it('stops the same wrong edit retried after each read within 14 requests: its second test run saw the first one\'s files', async () => {
    const r = await run(sameWrongEditRereading());
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    assert.ok(r.report.requests <= 14, `${r.report.requests} requests (stopped by: ${stops(r).join(', ')})`);
    assert.equal(stops(r)[0], 'same-files-retested');
    assert.equal(r.failingAtEnd, r.failingAtStart);
    assert.equal(r.report.requests, r.served.requests);
  });

  it('keeps the one real fix, then stops the wrong edit retried after each read within 21 requests', async () => {
    const r = await run(oneFixThenStuckRereading());
    assert.equal(r.failingAtEnd, 2, r.stderr);
    assert.equal(r.report.iterations[0].verdict, 'progress');
    assert.ok(r.report.requests <= 21, `${r.report.requests} requests (stopped by: ${stops(r).join(', ')})`);
    assert.equal(r.report.requests, r.served.requests);
  });

  it('stops the same growing edit, read before each try, within 12 requests: the same call again, the tests failing as before it', async () => {
    const r = await run(sameGrowingEditRereading());
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    assert.ok(r.report.requests <= 12, `${r.report.requests} requests (stopped by: ${stops(r).join(', ')})`);
    assert.equal(stops(r)[0], 'repeated-tool-call');
    assert.equal(r.report.reason, 'repeated-proposal');
    assert.equal(r.failingAtEnd, r.failingAtStart);
    assert.equal(r.report.requests, r.served.requests);
  });

  it('keeps the one real fix, then stops the same growing edit read before each try within 21 requests', async () => {
    const r = await run(oneFixThenGrowingEditRereading());
    assert.equal(r.failingAtEnd, 2, r.stderr);
    assert.equal(r.report.iterations[0].verdict, 'progress');
    assert.ok(r.report.requests <= 21, `${r.report.requests} requests (stopped by: ${stops(r).join(', ')})`);
    assert.equal(r.report.requests, r.served.requests);
  });

  it('never cuts short an agent whose repeated edit changes what the tests say: a counter it increments to three', async () => {
    const r = await run(countsToThree(), TALLY_FIXTURE);
    assert.equal(r.report.outcome, 'green', r.stderr);
    assert.deepEqual(stops(r), [null]);
    assert.equal(r.failingAtEnd, 0);
  });

  it('never cuts short an agent whose test runs show progress, even after one run that showed none', async () => {
    const r = await run(fixesOneAtATimeAfterASlip());
    assert.equal(r.report.outcome, 'green', r.stderr);
    assert.equal(r.report.iterations.length, 1);
    assert.deepEqual(stops(r), [null]);
    assert.equal(r.failingAtEnd, 0);
  });
});

// `--candidates N` in-process: a fake model that answers several times to one prompt (or the real OpenAI actor on a
// loopback server), the real verifier, snapshots and git. What is tried, refused, chosen and charged.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LoopEngine } from '../../../../../src/core/loop/engine';
import type { Actor, ActorRequest, ActorResponse } from '../../../../../src/ports/actor';
import type { RunState } from '../../../../../src/ports/runState';
import { systemClock } from '../../../../../src/base/systemClock';
import { DEFAULT_LOOP_CONFIG } from '../../../../../src/session/loopDefaults';
import type { LoopConfig } from '../../../../../src/shared/config';
import { CommandVerifier } from '../../../../../src/verify/commandVerifier';
import { openSnapshotStore } from '../../../../../src/snapshot/gitSnapshotStore';
import { createRedactor } from '../../../../../src/base/redact';
import { OpenAIActor } from '../../../../../src/actors/openaiActor';
import { candidatesThatFit } from '../../../../../src/core/loop/candidates/askMany';
import type { LoopContext } from '../../../../../src/core/loop/loopContext';
import type { LoopEvent } from '../../../../../src/core/loop/events';
import { progressLine } from '../../../../../src/session/progressLine';
import { tempDir, tempProject, treeBytes } from '../../../support/cli';
import { startFakeOpenAIServer } from '../../../../support/fakeOpenAIServer';

const block = (file: string, search: string, replace: string) => `${file}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const FIX_ADD = block('src/calc.js', '  return a - b;', '  return a + b;');
const FIX_MUL = (body: string) => block('src/calc.js', 'function mul(a, b) {\n  return a + b;', `function mul(a, b) {\n  ${body}`);
const FIX_BOTH = `${FIX_ADD}\n${FIX_MUL('return a * b;')}`;
const FIX_BOTH_SPACED = `${FIX_ADD}\n${FIX_MUL('return a*b; // product')}`;
const EDIT_TEST = block('test/calc.test.js', "  it('adds', () => assert.equal(add(2, 3), 5));", "  it('adds', () => assert.equal(add(2, 3), -1));");
const COMMENT = (t: string) => block('src/calc.js', "'use strict';", `'use strict';\n// ${t}`);

/** Answers in order of the requests made, all at once: request i gets answers[i]. */
class ManyActor implements Actor {
  readonly label = 'many';
  readonly prompts: string[] = [];
  private n = 0;
  constructor(private readonly answers: string[]) {}
  async propose(req: ActorRequest): Promise<ActorResponse> {
    this.prompts.push(req.prompt);
    const text = this.answers[this.n++];
    if (text === undefined) throw new Error('script exhausted');
    return { kind: 'text', text, usage: { prompt: 10, completion: 5 } };
  }
}

describe('candidates: several answers per attempt, one kept', function () {
  this.timeout(120_000);
  let project: string;
  let stateDir: string;
  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('candidates-state');
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function run(actor: Actor, config: Partial<LoopConfig>): Promise<{ state: RunState; events: LoopEvent[] }> {
    const full = { ...DEFAULT_LOOP_CONFIG, ...config };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: full.snapshotExcludes });
    const verifier = new CommandVerifier({ cwd: project, testCommand: 'node --test test/', tsc: 'off', timeoutMs: full.verifyTimeoutS * 1000 });
    const e = new LoopEngine({ cwd: project, actor, verifier, snapshots, clock: systemClock, config: full, redactor: createRedactor([]), retry: { baseMs: 1, maxMs: 5 } });
    const events: LoopEvent[] = [];
    e.events.on((ev) => events.push(ev));
    return { state: await e.run(new AbortController().signal), events };
  }

  it('refuses an answer that edits a test while another wins; every answer is charged, the attempt counted once', async () => {
    const actor = new ManyActor([EDIT_TEST, FIX_ADD, FIX_BOTH]);
    const { state, events } = await run(actor, { candidates: 3, autofix: 'off' });
    assert.equal(state.outcome, 'green', `${state.reasonText}\n${JSON.stringify(state.iterations.map((it) => it.candidates), null, 1).slice(0, 3000)}`);
    assert.equal(state.iterations.length, 1);
    const cands = state.iterations[0]!.candidates!;
    assert.deepEqual(cands.map((c) => [c.k, c.verdict, c.chosen]), [[1, 'refused', false], [2, 'progress', false], [3, 'green', true]]);
    assert.match(cands[0]!.note, /protected|test/);
    assert.match(cands[1]!.lostBecause!, /some failing tests pass/);
    assert.equal(state.llmCalls, 3);
    assert.deepEqual(state.tokens, { prompt: 30, completion: 15 });
    assert.deepEqual(state.iterations[0]!.tokens, { prompt: 30, completion: 15 });
    assert.match(fs.readFileSync(path.join(project, 'src/calc.js'), 'utf8'), /return a \* b;/);
    assert.match(fs.readFileSync(path.join(project, 'test/calc.test.js'), 'utf8'), /add\(2, 3\), 5\)/, 'the refused answer never reached the test file');
    const lines = events.map(progressLine).filter(Boolean);
    assert.ok(lines.includes('greenloop: attempt 1: 3 candidates — 1 green, 1 progress, 1 refused; answer 3 goes on'), lines.join('\n'));
    // Only the chosen one had the whole suite: the two tried ran the failing tests alone, and the chosen one's run was reused.
    // (A targeted run may follow the whole suite: the tests that flipped to passing, confirmed before green is believed.)
    const scopes = state.iterations[0]!.testRuns!.map((r) => r.scope);
    assert.deepEqual(scopes.slice(0, 3), ['targeted', 'targeted', 'full']);
    assert.equal(scopes.filter((s) => s === 'full').length, 1);
  });

  // Issue 41 item 5: the Loop history opens each answer's diff, from the attempt's start to the state it left.
  it("keeps each tried answer's edit in a snapshot of the run; a refused one has none", async () => {
    const actor = new ManyActor([FIX_ADD, EDIT_TEST, FIX_BOTH]);
    const { state } = await run(actor, { candidates: 3, autofix: 'off' });
    const [it1] = state.iterations;
    const cands = it1!.candidates!;
    assert.equal(cands[1]!.snapshot, undefined, 'the refused answer never reached the files');
    const viewer = await openSnapshotStore({ workspace: project, stateDir, excludes: DEFAULT_LOOP_CONFIG.snapshotExcludes, runId: 'view' });
    const calc = async (snapshot: string) => (await viewer.readFile(snapshot, 'src/calc.js'))?.toString('utf8') ?? '';
    assert.match(await calc(it1!.beforeSnapshot), /return a - b;/);
    assert.match(await calc(cands[0]!.snapshot!), /return a \+ b;[\s\S]*function mul\(a, b\) \{\n {2}return a \+ b;/, 'answer 1 fixed add only');
    assert.match(await calc(cands[2]!.snapshot!), /return a \* b;/);
  });

  it('agreeing answers vote together; the next prompt shows what the others tried', async () => {
    const actor = new ManyActor([FIX_ADD, FIX_BOTH, FIX_BOTH_SPACED, COMMENT('x')]);
    const { state } = await run(actor, { candidates: 3, autofix: 'off', maxIterations: 2 });
    assert.equal(state.outcome, 'green');
    const cands = state.iterations[0]!.candidates!;
    assert.deepEqual(cands.map((c) => c.votes), [1, 2, 2]);
    assert.equal(cands.find((c) => c.chosen)!.k, 2);
  });

  it('all answers failing the same way make one no-progress attempt, and patience counts attempts', async () => {
    const actor = new ManyActor(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(COMMENT));
    const { state } = await run(actor, { candidates: 3, autofix: 'off', patience: 2, maxIterations: 8 });
    assert.equal(state.reason, 'stagnation');
    assert.equal(state.iterations.length, 2);
    assert.deepEqual(state.iterations.map((it) => it.verdict), ['no-progress', 'no-progress']);
    assert.equal(state.llmCalls, 6);
    assert.match(actor.prompts[3]!, /the others, not kept: answer 2 edited src\/calc\.js: no failing test passed/);
  });

  it('a run of one candidate is the run it always was: same calls, same record, no candidates field', async () => {
    const actor = new ManyActor([FIX_ADD, FIX_MUL('return a * b;')]);
    const { state } = await run(actor, { autofix: 'off' });
    assert.equal(state.outcome, 'green');
    assert.equal(state.iterations.length, 2);
    assert.equal(state.iterations[0]!.candidates, undefined);
    assert.equal(state.llmCalls, 2);
  });

  it('the token deadline: once the answers that came spend the budget, the slow ones are abandoned and the attempt keeps the rest', async () => {
    // The server refuses `n`, so three requests go at once. It ignores max_tokens and reports a huge answer for the
    // first; the other two would take a minute. Decided by counts: that answer's usage passes the budget.
    const server = await startFakeOpenAIServer([
      { status: 400, body: { error: { message: "'n' is not supported", type: 'invalid_request_error' } } },
      { content: FIX_BOTH, usage: { prompt_tokens: 1000, completion_tokens: 199_000 } },
      { content: FIX_ADD, usage: { prompt_tokens: 1000, completion_tokens: 10 }, delayMs: 120_000 },
      { content: FIX_ADD, usage: { prompt_tokens: 1000, completion_tokens: 10 }, delayMs: 120_000 },
    ]);
    try {
      const actor = new OpenAIActor({ baseUrl: server.url, model: 'scripted' });
      const started = Date.now();
      const { state } = await run(actor, { candidates: 3, autofix: 'off', maxTokens: 200_000 });
      assert.ok(Date.now() - started < 100_000, 'the slow answers were not waited for');
      const cands = state.iterations[0]!.candidates!;
      assert.deepEqual(cands.map((c) => c.verdict).sort(), ['green', 'missing', 'missing']);
      for (const c of cands.filter((x) => x.verdict === 'missing')) assert.match(c.note, /abandoned: the token budget was spent/);
      assert.equal(state.outcome, 'green');
      assert.deepEqual(state.tokens, { prompt: 1000, completion: 199_000 });
      assert.equal(server.requests.length, 4);
    } finally {
      await server.close();
    }
  });

  it('answers the budget has no room for are not asked for: one `n` request that spent it ends the asking', async () => {
    const server = await startFakeOpenAIServer([{ content: FIX_BOTH, usage: { prompt_tokens: 1000, completion_tokens: 199_000 } }]);
    try {
      const actor = new OpenAIActor({ baseUrl: server.url, model: 'scripted' });
      const { state } = await run(actor, { candidates: 3, autofix: 'off', maxTokens: 200_000 });
      // The server ignored `n` (one choice); the budget was spent by it, so the other two were never requested.
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0]!.body.n, 3);
      const cands = state.iterations[0]!.candidates!;
      assert.deepEqual(cands.map((c) => c.verdict), ['green', 'missing', 'missing']);
      assert.match(cands[1]!.note, /not asked for: the token budget was spent/);
      assert.equal(state.outcome, 'green');
    } finally {
      await server.close();
    }
  });

  it('a 400 that rejects `n` falls back to one request per answer, and `n` is not tried again', async () => {
    const server = await startFakeOpenAIServer([
      { status: 400, body: { error: { message: "Unrecognized request argument supplied: n", type: 'invalid_request_error' } } },
      { content: COMMENT('one') }, { content: FIX_ADD }, { content: FIX_BOTH },
    ]);
    try {
      const actor = new OpenAIActor({ baseUrl: server.url, model: 'scripted' });
      const { state } = await run(actor, { candidates: 3, autofix: 'off' });
      assert.equal(state.outcome, 'green');
      assert.equal(server.requests.length, 4);
      assert.equal(server.requests[0]!.body.n, 3);
      assert.ok(server.requests.slice(1).every((r) => r.body.n === undefined));
      assert.equal(state.requests, 4);
      assert.equal(state.llmCalls, 3);
      const req = { system: 's', prompt: 'p', iteration: 2, cwd: project, signal: new AbortController().signal };
      assert.equal(await actor.proposeMany(req, 3), null);
      assert.equal(server.requests.length, 4, 'the endpoint is not asked for `n` again');
    } finally {
      await server.close();
    }
  });

  it('an endpoint that honours `n` gives every answer in one request, the prompt charged once', async () => {
    const choices = [COMMENT('one'), FIX_BOTH, FIX_ADD].map((content, index) => ({ index, message: { role: 'assistant', content }, finish_reason: 'stop' }));
    const server = await startFakeOpenAIServer([{ raw: JSON.stringify({ choices, usage: { prompt_tokens: 500, completion_tokens: 90 } }) }]);
    try {
      const actor = new OpenAIActor({ baseUrl: server.url, model: 'scripted' });
      const { state } = await run(actor, { candidates: 3, autofix: 'off' });
      assert.equal(state.outcome, 'green');
      assert.equal(server.requests.length, 1);
      assert.deepEqual(state.tokens, { prompt: 500, completion: 90 });
      assert.equal(state.iterations[0]!.candidates!.find((c) => c.chosen)!.k, 2);
    } finally {
      await server.close();
    }
  });

  it('asks for no answer the token budget or the time left cannot take', () => {
    const state = { limits: { maxTokens: 10_000, maxIterations: 8, maxMinutes: 0 }, tokens: { prompt: 4000, completion: 0 }, iterations: [], testMs: 2000 } as unknown as RunState;
    const ctx = (remainingMs: number) => ({ deadline: { remainingMs: () => remainingMs } }) as unknown as LoopContext;
    // 6,000 tokens left, 1,700 per answer (1,444 of prompt, 256 of answer at least): 3 fit of 5.
    assert.deepEqual(candidatesThatFit(ctx(Infinity), state, 5, 1444), { k: 3, maxOutputTokens: 556 });
    // 7 s left, 2 s per test run, one of them for the whole suite: 2 can be tried.
    assert.equal(candidatesThatFit(ctx(7000), state, 5, 100).k, 2);
    // Never fewer than one: whether one fits is prepare's question, as for a single answer.
    assert.equal(candidatesThatFit(ctx(10), state, 5, 100).k, 1);
    void treeBytes;
  });
});

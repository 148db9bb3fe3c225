// How coverage ranks and what it may cost: Ochiai's order on a small spectrum, the 30 % rule (the covered run may take
// 30 % of the baseline's test time, and is stopped there), and the loop using or skipping the coverage of a real covered
// run, the baseline's time handed to it far from the covered run's either way (no verdict rides on this machine's speed).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonOf } from '../../../src/runners/common/pyCoverage';
import { rankBySpectrum, ochiai, EXECUTED_ONLY_WEIGHT, RAN_ONCE_WEIGHT } from '../../../src/verify/coverage/ochiai';
import type { CoverageUnit } from '../../../src/runners/runner';
import { coverageAllowanceMs, coverageCostWords, MAX_COVERAGE_COST } from '../../../src/core/loop/coverageRun';
import { LoopEngine } from '../../../src/core/loop/engine';
import type { Actor, ActorRequest, ActorResponse } from '../../../src/ports/actor';
import type { TargetedRun, Verifier } from '../../../src/ports/verifier';
import { systemClock } from '../../../src/base/systemClock';
import { DEFAULT_LOOP_CONFIG, coverageFloorFromEnv } from '../../../src/session/loopDefaults';
import { CommandVerifier } from '../../../src/verify/commandVerifier';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { createRedactor } from '../../../src/base/redact';
import { toReport } from '../../../src/core/run/report';
import { tempDir, tempProject } from '../support/cli';
import { progressLine } from '../../../src/session/progressLine';

const unit = (failed: boolean, lines: Record<string, number[]>): CoverageUnit => ({ failed, lines: new Map(Object.entries(lines).map(([p, l]) => [p, new Set(l)])) });

describe('ranking by the failing tests\' spectrum', () => {
  it('Ochiai: executed by every failing run and no passing one first, then by how seldom passing runs touch it', () => {
    const units = [
      unit(true, { 'a.js': [1, 2, 3], 'b.js': [7] }),
      unit(true, { 'a.js': [1, 2, 4] }),
      unit(false, { 'a.js': [1, 4] }),
      unit(false, { 'a.js': [1, 9] }),
    ];
    const ranked = rankBySpectrum(units);
    assert.strictEqual(ranked.ranking, 'ochiai');
    assert.deepStrictEqual(ranked.units, { failing: 2, passing: 2 });
    // a.js:2 (ef 2, ep 0) = 1; a.js:3, b.js:7 (ef 1, ep 0) = 1/√2; a.js:4 (ef 1, ep 1) = 1/2; a.js:1 (ef 2, ep 2) = 1/√2·… = 0.707…
    assert.deepStrictEqual(ranked.hints.map((h) => `${h.path}:${h.line}`), ['a.js:2', 'a.js:1', 'a.js:3', 'b.js:7', 'a.js:4']);
    assert.strictEqual(ranked.hints[0].score, 1);
    assert.strictEqual(ranked.hints[4].score, ochiai(1, 1, 2));
    assert.ok(!ranked.hints.some((h) => h.line === 9), 'a line only passing runs executed is no hint');
    assert.ok(ranked.hints.every((h) => h.source === 'coverage'));
  });

  it('with no passing run: executed by more failing runs first, every score below a stack frame\'s', () => {
    const ranked = rankBySpectrum([unit(true, { 'a.js': [1, 2] }), unit(true, { 'a.js': [2] })]);
    assert.strictEqual(ranked.ranking, 'executed');
    assert.deepStrictEqual(ranked.hints.map((h) => h.line), [2, 1]);
    assert.strictEqual(ranked.hints[0].score, EXECUTED_ONLY_WEIGHT);
  });

  it('with no passing run: a line run again and again before one run once (at import), where the tool counts', () => {
    const counted: CoverageUnit = { ...unit(true, { 'lib/load.js': [1, 2], 'lib/rate.js': [5] }), repeated: new Map([['lib/rate.js', new Set([5])]]) };
    const ranked = rankBySpectrum([counted]);
    assert.deepStrictEqual(ranked.hints.map((h) => `${h.path}:${h.line}`), ['lib/rate.js:5', 'lib/load.js:1', 'lib/load.js:2']);
    assert.strictEqual(ranked.hints[1].score, EXECUTED_ONLY_WEIGHT * RAN_ONCE_WEIGHT);
    // A tool that does not count (go's set mode, coverage.py) ranks every executed line alike.
    assert.ok(rankBySpectrum([unit(true, { 'a.py': [1, 2] })]).hints.every((h) => h.score === EXECUTED_ONLY_WEIGHT));
  });

  it('keeps at most `limit` lines, the most suspicious', () => {
    const ranked = rankBySpectrum([unit(true, { 'a.js': [1, 2, 3] }), unit(false, { 'a.js': [1, 2] })], 1);
    assert.deepStrictEqual(ranked.hints.map((h) => h.line), [3]);
  });
});

describe('what coverage may cost', () => {
  it("the covered runs may take 30 % of the baseline's test time or 5 s, whichever is more, said in words", () => {
    assert.strictEqual(MAX_COVERAGE_COST, 0.3);
    assert.strictEqual(coverageAllowanceMs(1000), 5000);
    assert.strictEqual(coverageAllowanceMs(0), 5000, 'a wasted model call costs more than 5 s of a covered run');
    assert.strictEqual(coverageAllowanceMs(100_000), 30_000);
    assert.strictEqual(coverageCostWords(20_000, 2400), "the covered runs took 2400 ms, 12 % of the baseline's 20000 ms (at most 6000 ms: 30 % of the baseline's 20000 ms or 5 s, whichever is more)");
    assert.strictEqual(coverageAllowanceMs(1000, 30_000), 30_000, 'a floor the config raises');
    assert.deepStrictEqual(coverageFloorFromEnv({ GREENLOOP_COVERAGE_FLOOR_MS: '20000' }), { coverageFloorMs: 20_000 });
    for (const bad of ['', '5s', '-1', '1.5']) assert.deepStrictEqual(coverageFloorFromEnv({ GREENLOOP_COVERAGE_FLOOR_MS: bad }), {}, bad);
  });
});

class OneAnswer implements Actor {
  readonly label = 'scripted';
  readonly prompts: string[] = [];
  async propose(req: ActorRequest): Promise<ActorResponse> {
    this.prompts.push(req.prompt);
    return { kind: 'text', text: 'lib/tax.js\n<<<<<<< SEARCH\n  const rate = 0.25;\n=======\n  const rate = 0.2;\n>>>>>>> REPLACE\n', usage: { prompt: 10, completion: 5 } };
  }
}

/** The real verifier, whose whole-suite runs report the time given: the baseline coverage is priced against. */
function baselineOf(inner: CommandVerifier, baselineMs: number): Verifier & { coveredRuns: number } {
  const v = {
    coveredRuns: 0,
    verify: async (...args: Parameters<CommandVerifier['verify']>) => {
      const w = await inner.verify(...args);
      w.testDurationMs = baselineMs;
      return w;
    },
    rerun: inner.rerun.bind(inner),
    verifyTargeted: async (...args: Parameters<CommandVerifier['verifyTargeted']>): Promise<TargetedRun> => {
      if (args[2]?.coverage) v.coveredRuns++;
      return inner.verifyTargeted(...args);
    },
  };
  return v;
}

describe('the loop and the coverage of the baseline\'s failing tests (real node --test, measured times given)', function () {
  this.timeout(120_000);
  const made: string[] = [];
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  // The 5 s floor itself, as a user's run has it (the suite's .mocharc.js raises it for every other test).
  async function run(baselineMs: number, testCommand = 'node --test test/', coverageFloorMs = 5000) {
    const project = tempProject('taxrate');
    const stateDir = tempDir('coverage-state');
    made.push(project, stateDir);
    const config = { ...DEFAULT_LOOP_CONFIG, maxIterations: 1, coverageFloorMs };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: config.snapshotExcludes });
    const verifier = baselineOf(new CommandVerifier({ cwd: project, testCommand, tsc: 'off', timeoutMs: 120_000 }), baselineMs);
    const actor = new OneAnswer();
    const e = new LoopEngine({ cwd: project, actor, verifier, snapshots, clock: systemClock, config, redactor: createRedactor([]) });
    const lines: string[] = [];
    e.events.on((ev) => {
      const line = progressLine(ev);
      if (line) lines.push(line);
    });
    const state = await e.run(new AbortController().signal);
    return { state, report: toReport(state, createRedactor([])), verifier, lines, actor };
  }

  it("a baseline of 400 s (120 s allowed): used, the wrong constant's line among the hints and in the first prompt, tests excluded, the report says so", async () => {
    const { state, report, lines, actor } = await run(400_000);
    assert.ok(actor.prompts[0]?.includes('  const rate = 0.25;'), 'the wrong line, in the first prompt');
    assert.strictEqual(state.outcome, 'green');
    assert.strictEqual(report.coverage?.used, true, report.coverage?.why);
    assert.strictEqual(report.coverage?.tool, 'V8');
    assert.strictEqual(report.coverage?.baselineMs, 400_000);
    assert.ok((report.coverage?.coveredMs ?? 0) > 0);
    assert.match(report.coverage!.why, /^V8: \d+ lines the failing tests executed, ranked by Ochiai, beside a covered run of the same files' passing tests \(0 ran\); the covered runs took \d+ ms, \d+ % of the baseline's 400000 ms \(at most 120000 ms: .*\)$/);
    assert.strictEqual(report.coverage?.ranking, 'ochiai');
    const hints = state.codeHints ?? [];
    assert.ok(hints.some((h) => h.path === 'lib/tax.js' && h.line === 3 && h.source === 'coverage'), JSON.stringify(hints));
    assert.ok(!hints.some((h) => h.path.startsWith('test/')), 'the protected test files are no hints');
    assert.strictEqual(report.coverage?.hints, hints.length);
    // A person following the CLI reads it between the baseline and the first attempt.
    const at = lines.findIndex((l) => l.startsWith('greenloop: coverage of the failing tests used — V8: '));
    assert.ok(at > 0 && lines[at - 1].startsWith('greenloop: baseline — ') && lines[at + 1].startsWith('greenloop: attempt 1/'), lines.join('\n'));
  });

  it('a covered run past its deadline (a 20 s baseline, 6 s allowed; the covered run waits a minute): stopped there, skipped, no hint kept, the report says why', async () => {
    // Only the covered run has NODE_V8_COVERAGE: it alone waits, so it can never finish within its 6 s.
    const { state, report, verifier, lines } = await run(20_000, 'node -e "if (process.env.NODE_V8_COVERAGE) setTimeout(() => {}, 60000)" && node --test test/');
    assert.ok(lines.includes(`greenloop: coverage of the failing tests not used — ${report.coverage!.why}`), lines.join('\n'));
    assert.strictEqual(report.coverage?.used, false);
    assert.strictEqual(report.coverage!.why, "skipped: the covered run of the failing tests passed 6000 ms (30 % of the baseline's 20000 ms or 5 s, whichever is more) and was stopped there");
    assert.strictEqual(state.codeHints, undefined);
    assert.strictEqual(verifier.coveredRuns, 1, 'one covered run, stopped; no plain twin');
    assert.strictEqual(state.outcome, 'green', 'the loop goes on as without coverage');
  });

  it('a small suite (a 1 s baseline): measured all the same, failing and passing tests in two covered runs', async () => {
    // A floor no busy machine reaches: what is asserted is that a small suite is measured, not how fast.
    const { report, verifier } = await run(1_000, undefined, 600_000);
    assert.strictEqual(verifier.coveredRuns, 2);
    assert.strictEqual(report.coverage?.used, true, report.coverage?.why);
    // taxrate's failing test is alone in its file: the passing side is that file loaded with no test run, which
    // tells the lines run at import from the ones the failing test ran.
    assert.strictEqual(report.coverage?.ranking, 'ochiai');
    assert.strictEqual(report.coverage?.passingTests, 0);
    assert.match(report.coverage!.why, /\(at most 600000 ms: 30 % of the baseline's 1000 ms or 600 s, whichever is more\)$/);
  });

  it('a stack frame already names the code under test: no covered run at all', async () => {
    const { state, report, verifier } = await run(400_000, 'node --test test/ 2>&1; s=$?; echo "    at total (lib/tax.js:3:9)"; exit $s');
    assert.strictEqual(verifier.coveredRuns, 0);
    assert.strictEqual(report.coverage?.used, false);
    assert.match(report.coverage!.why, /stack frames already name lines of the code under test/);
    assert.strictEqual(state.codeHints, undefined);
  });
});

describe('which python runs pytest', () => {
  it('python -m pytest: that python; a pytest script: its #! python; a shim that names none: none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-pythonof-'));
    try {
      fs.writeFileSync(path.join(dir, 'pytest'), '#!/opt/py/bin/python3.11\nimport pytest\n', { mode: 0o755 });
      fs.mkdirSync(path.join(dir, 'shim'));
      fs.writeFileSync(path.join(dir, 'shim', 'pytest'), '#!/usr/bin/env bash\nexec pyenv exec pytest "$@"\n', { mode: 0o755 });
      assert.strictEqual(pythonOf('/usr/bin/python3', undefined, dir), '/usr/bin/python3');
      assert.strictEqual(pythonOf('pytest', dir, dir), '/opt/py/bin/python3.11');
      assert.strictEqual(pythonOf('pytest', path.join(dir, 'shim'), dir), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

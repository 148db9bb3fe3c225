// How coverage ranks and what it may cost: Ochiai's order on a small spectrum, the 30 % rule on measured times (given
// here, never taken from this machine's clock), and the loop using or skipping the coverage of a real covered run
// whose measured times are handed to it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonOf } from '../../../src/verify/coverage/pyCoverage';
import { rankBySpectrum, ochiai, EXECUTED_ONLY_WEIGHT, RAN_ONCE_WEIGHT, type CoverageUnit } from '../../../src/verify/coverage/ochiai';
import { coverageCost, MAX_COVERAGE_COST } from '../../../src/core/loop/coverageRun';
import { LoopEngine } from '../../../src/core/loop/engine';
import type { Actor, ActorRequest, ActorResponse } from '../../../src/ports/actor';
import type { TargetedRun, Verifier } from '../../../src/ports/verifier';
import { systemClock } from '../../../src/base/systemClock';
import { DEFAULT_LOOP_CONFIG } from '../../../src/shared/config';
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
  it('used at up to 30 % more than the same run without it, skipped beyond, with the measurement in words', () => {
    assert.strictEqual(MAX_COVERAGE_COST, 0.3);
    assert.deepStrictEqual(coverageCost(1000, 1300).used, true);
    assert.match(coverageCost(1000, 1300).why, /^coverage added 30 % to the failing tests' run \(the covered run took 1300 ms, the same tests without coverage 1000 ms\)$/);
    const over = coverageCost(1000, 1301);
    assert.strictEqual(over.used, false);
    assert.match(over.why, /^skipped: coverage would add 30 % .*more than the 30 % allowed/);
    assert.strictEqual(coverageCost(1000, 2500).used, false);
    assert.strictEqual(coverageCost(0, 10).used, false, 'a plain run of 0 ms gives no ratio to trust');
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

/** The real verifier, whose targeted runs report the times given: covered runs `ratio` times the plain one. */
function measuredAs(inner: CommandVerifier, ratio: number): Verifier & { targetedRuns: number } {
  const v = {
    targetedRuns: 0,
    verify: inner.verify.bind(inner),
    rerun: inner.rerun.bind(inner),
    verifyTargeted: async (...args: Parameters<CommandVerifier['verifyTargeted']>): Promise<TargetedRun> => {
      v.targetedRuns++;
      const run = await inner.verifyTargeted(...args);
      if (run.ok) run.witness.testDurationMs = args[2]?.coverage ? Math.round(1000 * ratio) : 1000;
      return run;
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

  async function run(ratio: number) {
    const project = tempProject('taxrate');
    const stateDir = tempDir('coverage-state');
    made.push(project, stateDir);
    const config = { ...DEFAULT_LOOP_CONFIG, maxIterations: 1 };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: config.snapshotExcludes });
    const verifier = measuredAs(new CommandVerifier({ cwd: project, testCommand: 'node --test test/', tsc: 'off', timeoutMs: 120_000 }), ratio);
    const e = new LoopEngine({ cwd: project, actor: new OneAnswer(), verifier, snapshots, clock: systemClock, config, redactor: createRedactor([]) });
    const lines: string[] = [];
    e.events.on((ev) => {
      const line = progressLine(ev);
      if (line) lines.push(line);
    });
    const state = await e.run(new AbortController().signal);
    return { state, report: toReport(state, createRedactor([])), verifier, lines };
  }

  it('at 20 % more: used, the wrong constant\'s line among the hints, tests excluded, the report says so', async () => {
    const { state, report, lines } = await run(1.2);
    assert.strictEqual(state.outcome, 'green');
    assert.strictEqual(report.coverage?.used, true, report.coverage?.why);
    assert.strictEqual(report.coverage?.tool, 'V8');
    assert.deepStrictEqual([report.coverage?.plainMs, report.coverage?.coveredMs], [1000, 1200]);
    assert.match(report.coverage!.why, /^V8: \d+ lines the failing tests executed, ranked by the failing tests alone .*; coverage added 20 %/);
    const hints = state.codeHints ?? [];
    assert.ok(hints.some((h) => h.path === 'lib/tax.js' && h.line === 3 && h.source === 'coverage'), JSON.stringify(hints));
    assert.ok(!hints.some((h) => h.path.startsWith('test/')), 'the protected test files are no hints');
    assert.strictEqual(report.coverage?.hints, hints.length);
    // A person following the CLI reads it between the baseline and the first attempt.
    const at = lines.findIndex((l) => l.startsWith('greenloop: coverage of the failing tests used — V8: '));
    assert.ok(at > 0 && lines[at - 1].startsWith('greenloop: baseline — ') && lines[at + 1].startsWith('greenloop: attempt 1/'), lines.join('\n'));
  });

  it('at 50 % more: skipped, no hint kept, and the report gives the measured times', async () => {
    const { state, report, verifier, lines } = await run(1.5);
    assert.ok(lines.includes(`greenloop: coverage of the failing tests not used — ${report.coverage!.why}`), lines.join('\n'));
    assert.strictEqual(report.coverage?.used, false);
    assert.match(report.coverage!.why, /^skipped: coverage would add 50 % to the failing tests' run, more than the 30 % allowed \(the covered run took 1500 ms, the same tests without coverage 1000 ms\)$/);
    assert.strictEqual(state.codeHints, undefined);
    // The covered run and its plain twin before the first attempt, then the attempt's own runs.
    assert.ok(verifier.targetedRuns >= 2);
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

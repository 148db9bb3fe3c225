// The cross-run guard across CI runs, as docs/ci.md tells people to set it up: every run is a fresh checkout of the
// same commit at the same job path and a fresh runner temp folder, and only the folder the examples cache with
// actions/cache (restored before the step, saved after it) carries anything from one run to the next.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { load } from 'js-yaml';
import { actionHarness } from './actionHarness';
import type { ActionHarness, ActionResult } from './actionHarness';
import { ROOT } from '../support/cli';
import { answer, COMMENT } from '../../support/calcAnswers';

interface Step {
  uses?: string;
  with?: Record<string, string>;
}

/** The nightly example of docs/ci.md (the one that sets cross-run-limit): its cache steps and its Greenloop step. */
function documentedCacheSetup(): { restorePath: string; savePath: string; inputs: Record<string, string> } {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'ci.md'), 'utf8');
  const workflows = [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => load(m[1]) as { jobs: Record<string, { steps: Step[] }> });
  const steps = workflows.flatMap((w) => Object.values(w.jobs ?? {}).map((j) => j.steps)).find((s) => s.some((st) => st.with?.['cross-run-limit']));
  assert.ok(steps, 'docs/ci.md has an example that sets cross-run-limit');
  const restore = steps!.find((s) => s.uses?.startsWith('actions/cache/restore@'));
  const save = steps!.find((s) => s.uses?.startsWith('actions/cache/save@'));
  const greenloop = steps!.find((s) => s.with?.['state-dir']);
  assert.ok(restore && save && greenloop, 'the example restores the cache, runs Greenloop with a state-dir, and saves the cache');
  return { restorePath: restore!.with!.path, savePath: save!.with!.path, inputs: greenloop!.with! };
}

/** What the runner makes of `${{ runner.temp }}` in a path. */
const expand = (value: string, runnerTemp: string): string => value.replace(/\$\{\{\s*runner\.temp\s*\}\}/g, runnerTemp);

describe('the cross-run guard across CI runs, with only the docs\' cached folder kept between them', function () {
  this.timeout(600_000);
  let h: ActionHarness;
  let runner: string;
  beforeEach(async () => {
    h = await actionHarness();
    runner = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-runner-'));
  });
  afterEach(async () => {
    await h.close();
    fs.rmSync(runner, { recursive: true, force: true });
  });

  it('after cross-run-limit escalations on the same failures, the next nightly run stops before asking the model @heavy', async () => {
    const doc = documentedCacheSetup();
    assert.strictEqual(doc.savePath, doc.restorePath, 'the cache is saved from where it is restored to');
    // GitHub's runner: the same job path and temp folder in every run, both emptied between runs.
    const jobPath = path.join(runner, 'work', 'calc', 'calc');
    const runnerTemp = path.join(runner, 'work', '_temp');
    const cachedPath = expand(doc.restorePath, runnerTemp);
    const stateDir = expand(doc.inputs['state-dir'], runnerTemp);
    const cacheStore = path.join(h.scratch, 'actions-cache');

    let runId = 5000;
    /** One scheduled run: checkout, cache restore, the Greenloop step, cache save (if: always()). */
    const nightlyRun = async (opts: { restore?: boolean; inputs?: Record<string, string> } = {}): Promise<ActionResult & { modelRequests: number }> => {
      fs.rmSync(jobPath, { recursive: true, force: true });
      fs.rmSync(runnerTemp, { recursive: true, force: true });
      fs.mkdirSync(runnerTemp, { recursive: true });
      execFileSync('git', ['clone', '-q', '--no-checkout', h.origin, jobPath]);
      execFileSync('git', ['checkout', '-q', '--detach', h.sha], { cwd: jobPath });
      if (opts.restore !== false && fs.existsSync(cacheStore)) fs.cpSync(cacheStore, cachedPath, { recursive: true });
      fs.writeFileSync(h.summaryFile, '');
      fs.writeFileSync(h.outputFile, '');
      const asked = h.server.requests.length;
      // The model keeps failing the same way: an edit no test notices, every attempt (two answers ready, one per
      // attempt patience allows; what a run does not ask for waits for the next one).
      while (h.server.remaining() < 2) h.server.push(answer(COMMENT(`maybe this (${h.server.remaining()})`)));
      const res = await h.run([], {
        'cross-run-limit': '2', patience: '2', 'max-iterations': '6', 'state-dir': stateDir, 'timeout-minutes': '40', ...opts.inputs,
      }, { GITHUB_WORKSPACE: jobPath, RUNNER_TEMP: runnerTemp, GITHUB_RUN_ID: String(++runId) });
      // actions/cache/save: a new immutable entry of the cached path as it is now.
      if (fs.existsSync(cachedPath)) {
        fs.rmSync(cacheStore, { recursive: true, force: true });
        fs.cpSync(cachedPath, cacheStore, { recursive: true });
      }
      return { ...res, modelRequests: h.server.requests.length - asked };
    };

    const first = await nightlyRun();
    assert.strictEqual(first.code, 1, first.stderr);
    assert.strictEqual(first.outputs.outcome, 'escalated');
    assert.strictEqual(first.outputs.reason, 'stagnation');
    assert.strictEqual(first.modelRequests, 2);
    assert.ok(fs.existsSync(cacheStore), `the run left its history in the cached folder ${cachedPath}`);

    const second = await nightlyRun();
    assert.strictEqual(second.code, 1, second.stderr);
    assert.strictEqual(second.outputs.reason, 'stagnation');
    assert.strictEqual(second.modelRequests, 2, 'one escalation in a row is below the limit: the model is asked');
    assert.match(second.stderr, /The last 1 run on these same 2 failing tests, with this model and these budgets, escalated: .*One more such escalation and Greenloop will refuse/);

    const third = await nightlyRun();
    assert.strictEqual(third.code, 1, third.stderr);
    assert.strictEqual(third.modelRequests, 0, 'the third run on the same failure never asks the model');
    assert.strictEqual(third.outputs.outcome, 'escalated');
    assert.strictEqual(third.outputs.reason, 'stagnation');
    assert.strictEqual(third.outputs.attempts, '0');
    assert.strictEqual(third.outputs['failing-before'], '2');
    assert.strictEqual(third.outputs['failing-after'], '2');
    const why = /The last 2 runs on these same 2 failing tests, with this model and these budgets, escalated: \S+ \(stagnation after 2 attempts\), \S+ \(stagnation after 2 attempts\); every one stopped with stagnation\. This run stopped before asking the model, since it would most likely end the same way\./;
    assert.match(third.summary, /## ⚠️ Greenloop: escalated \(stagnation\)/);
    assert.match(third.summary, why);
    assert.match(third.stderr, /^::warning title=Greenloop escalated \(stagnation\)::The last 2 runs on these same 2 failing tests/m);
    const report = JSON.parse(fs.readFileSync(third.outputs['report-path'], 'utf8'));
    assert.match(report.reasonText, why);
    assert.strictEqual(fs.readFileSync(third.outputs['patch-path'], 'utf8'), '', 'nothing changed: an empty patch');
    assert.strictEqual(execFileSync('git', ['status', '--porcelain'], { cwd: jobPath, encoding: 'utf8' }), '');

    // And it stays stopped night after night, until something changes.
    const fourth = await nightlyRun();
    assert.strictEqual(fourth.code, 1, fourth.stderr);
    assert.strictEqual(fourth.modelRequests, 0);
    assert.strictEqual(fourth.outputs.attempts, '0');

    // A person who wants one more try says so, and is heard.
    const anyway = await nightlyRun({ inputs: { 'ignore-history': 'true' } });
    assert.strictEqual(anyway.modelRequests, 2, anyway.stderr);
    assert.match(anyway.stderr, /This run stopped before asking the model, since it would most likely end the same way\. .* You chose to run anyway\./);

    // Only the cached folder carried the count: a run whose cache was not restored asks the model again.
    const uncached = await nightlyRun({ restore: false });
    assert.strictEqual(uncached.modelRequests, 2, uncached.stderr);
    assert.strictEqual(h.server.overruns, 0);
  });
});

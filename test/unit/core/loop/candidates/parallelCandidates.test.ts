// `--candidates-parallel`: the same answers judged side by side, each in its own copy of the workspace, against one
// after another in the workspace. Real verifier, snapshots and git; the test file notes the folder each run ran in.
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
import { copiesOf, copiesRoot } from '../../../../../src/snapshot/workspaceCopies';
import { createRedactor } from '../../../../../src/base/redact';
import { tempDir, tempProject } from '../../../support/cli';

const block = (file: string, search: string, replace: string) => `${file}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const FIX_ADD = block('src/calc.js', '  return a - b;', '  return a + b;');
const FIX_MUL = (body: string) => block('src/calc.js', 'function mul(a, b) {\n  return a + b;', `function mul(a, b) {\n  ${body}`);
const FIX_BOTH = `${FIX_ADD}\n${FIX_MUL('return a * b;')}`;
const FIX_BOTH_SPACED = `${FIX_ADD}\n${FIX_MUL('return a*b; // product')}`;
const EDIT_TEST = block('test/calc.test.js', "  it('adds', () => assert.equal(add(2, 3), 5));", "  it('adds', () => assert.equal(add(2, 3), -1));");
/** Progress, green, refused (a test edit), green agreeing with the second, the first again. */
const ANSWERS = [FIX_ADD, FIX_BOTH_SPACED, EDIT_TEST, FIX_BOTH, FIX_ADD];

class ManyActor implements Actor {
  readonly label = 'many';
  private n = 0;
  constructor(private readonly answers: string[]) {}
  async propose(_req: ActorRequest): Promise<ActorResponse> {
    const text = this.answers[this.n++];
    if (text === undefined) throw new Error('script exhausted');
    return { kind: 'text', text, usage: { prompt: 10, completion: 5 } };
  }
}

describe('candidates judged side by side (--candidates-parallel), each in its own copy of the workspace', function () {
  this.timeout(240_000);
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  /** `testCommand`: set the project up (a runner installed outside its tree) and name the command that runs its tests. */
  async function run(config: Partial<LoopConfig>, testCommand: (project: string) => string = () => 'node --test test/'): Promise<{ state: RunState; project: string; ranIn: string[]; root: string }> {
    const project = tempProject('calc');
    const stateDir = tempDir('parallel-state');
    const log = path.join(tempDir('parallel-log'), 'where.log');
    dirs.push(project, stateDir, path.dirname(log));
    // Every test run writes down the folder it ran in.
    const testFile = path.join(project, 'test', 'calc.test.js');
    fs.writeFileSync(testFile, `require('fs').appendFileSync(process.env.WHERE_LOG, process.cwd() + '\\n');\n${fs.readFileSync(testFile, 'utf8')}`);
    const full = { ...DEFAULT_LOOP_CONFIG, autofix: 'off' as const, maxIterations: 1, candidates: ANSWERS.length, ...config };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: full.snapshotExcludes });
    const verifier = new CommandVerifier({ cwd: project, testCommand: testCommand(project), tsc: 'off', timeoutMs: full.verifyTimeoutS * 1000, env: { ...process.env, WHERE_LOG: log } });
    const e = new LoopEngine({
      cwd: project, actor: new ManyActor(ANSWERS), verifier, snapshots, copies: copiesOf(snapshots, () => undefined), clock: systemClock,
      config: full, redactor: createRedactor([]), retry: { baseMs: 1, maxMs: 5 },
    });
    const state = await e.run(new AbortController().signal);
    const ranIn = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    return { state, project, ranIn, root: copiesRoot(snapshots.storeDir) };
  }

  const picked = (state: RunState) => state.iterations[0]!.candidates!.map((c) => ({
    k: c.k, verdict: c.verdict, chosen: c.chosen, failing: c.failing, newlyFailing: c.newlyFailing, votes: c.votes, files: c.files, lostBecause: c.lostBecause,
  }));

  it('gives the same pick as one after another, with the failing tests run in the copies and the workspace untouched until the pick', async () => {
    const one = await run({});
    const side = await run({ candidatesParallel: true });
    assert.equal(one.state.outcome, 'green', one.state.reasonText);
    assert.equal(side.state.outcome, 'green', side.state.reasonText);
    assert.deepEqual(picked(side.state), picked(one.state));
    assert.deepEqual(picked(one.state).map((c) => [c.verdict, c.chosen]), [['progress', false], ['green', true], ['refused', false], ['green', false], ['repeat', false]]);
    assert.equal(fs.readFileSync(path.join(side.project, 'src/calc.js'), 'utf8'), fs.readFileSync(path.join(one.project, 'src/calc.js'), 'utf8'));

    // One after another: every run in the workspace. Side by side: the baseline's and the chosen one's whole-suite
    // run in the workspace; each candidate that was tried, in a copy of its own — none of them in the workspace.
    const inWorkspace = (r: typeof one) => r.ranIn.filter((d) => d === r.project || d === fs.realpathSync(r.project)).length;
    assert.equal(one.ranIn.filter((d) => d.startsWith(one.root)).length, 0);
    const inCopies = side.ranIn.filter((d) => d.startsWith(side.root));
    assert.equal(new Set(inCopies).size, 3, `three candidates were tested, each in its own copy:\n${side.ranIn.join('\n')}`);
    assert.equal(inWorkspace(side), inWorkspace(one) - 3, 'the three trial runs left the workspace');
    // The same runs either way: the failing tests alone for each candidate tried, the whole suite for the chosen one.
    const scopes = (r: typeof one) => r.state.iterations[0]!.testRuns!.map((t) => t.scope);
    assert.deepEqual(scopes(side), scopes(one));
    assert.ok(!fs.existsSync(side.root) || fs.readdirSync(side.root).length === 0, 'no copy is left');
  });

  /** A runner the project does not hold: a script that runs node's test runner, in `dir` under the project. */
  const runnerIn = (project: string, dir: string, target: string) => {
    fs.mkdirSync(target, { recursive: true });
    fs.writeFileSync(path.join(target, 'run-tests'), `#!/bin/sh\nexec "${process.execPath}" --test test/\n`, { mode: 0o755 });
    fs.appendFileSync(path.join(project, '.gitignore'), `${dir}\n`);
  };

  it('links a node_modules that is itself a link (a worktree\'s, a bench\'s) into each copy, so the runner under it runs there', async () => {
    const side = await run({ candidatesParallel: true }, (project) => {
      const modules = tempDir('linked-modules');
      dirs.push(modules);
      runnerIn(project, 'node_modules', modules);
      fs.symlinkSync(modules, path.join(project, 'node_modules'), 'dir');
      return 'node_modules/run-tests';
    });
    assert.equal(side.state.outcome, 'green', side.state.reasonText);
    assert.deepEqual(side.state.warnings.filter((w) => /one after another/.test(w)), []);
    assert.equal(new Set(side.ranIn.filter((d) => d.startsWith(side.root))).size, 3, `three candidates were tested, each in its own copy:\n${side.ranIn.join('\n')}`);
  });

  it('judges the answers in the workspace, saying why, when the test command cannot run in a copy, and the run goes on', async () => {
    const one = await run({}, (project) => {
      runnerIn(project, 'tools', path.join(project, 'tools'));
      return 'tools/run-tests';
    });
    const side = await run({ candidatesParallel: true }, (project) => {
      runnerIn(project, 'tools', path.join(project, 'tools'));
      return 'tools/run-tests';
    });
    assert.equal(side.state.outcome, 'green', side.state.reasonText);
    assert.ok(side.state.warnings.some((w) => /judged one after another in the workspace: judging them in copies failed \(/.test(w)), side.state.warnings.join('\n'));
    assert.deepEqual(picked(side.state), picked(one.state));
    assert.ok(!fs.existsSync(side.root) || fs.readdirSync(side.root).length === 0, 'no copy is left');
  });
});

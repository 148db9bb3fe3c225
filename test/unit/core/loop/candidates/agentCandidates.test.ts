// `--candidates N` with an agent CLI: N real agent processes (a scripted agent), each in its own copy of the workspace,
// the real verifier, snapshots and git. The person's workspace is untouched while they work; only the chosen edit
// reaches it; the copies go, also when the run is stopped, and a killed run's leftovers go at the next start.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LoopEngine } from '../../../../../src/core/loop/engine';
import { CommandActor } from '../../../../../src/actors/commandActor';
import type { RunState } from '../../../../../src/ports/runState';
import { systemClock } from '../../../../../src/base/systemClock';
import { DEFAULT_LOOP_CONFIG } from '../../../../../src/session/loopDefaults';
import type { LoopConfig } from '../../../../../src/shared/config';
import { CommandVerifier } from '../../../../../src/verify/commandVerifier';
import { openSnapshotStore } from '../../../../../src/snapshot/gitSnapshotStore';
import { copiesOf, copiesRoot } from '../../../../../src/snapshot/workspaceCopies';
import { openWorkspace } from '../../../../../src/session/openWorkspace';
import { createRedactor } from '../../../../../src/base/redact';
import { canonicalWorkspace, shadowDirFor } from '../../../../../src/base/stateDir';
import { startCli, tempDir, tempProject } from '../../../support/cli';
import { waitUntil } from '../../../support/waitUntil';

const ORIGINAL = `'use strict';

function add(a, b) {
  return a - b;
}

function mul(a, b) {
  return a + b;
}
`;

/**
 * Takes the next number (1, 2, 3… in the order the agents start, counting on over attempts), notes what it sees, waits until all `AGENT_N` have
 * started (so they work at the same time), then makes edit number k in its folder and, with AGENT_HANG, never ends.
 */
const AGENT = String.raw`
const fs = require('fs'), path = require('path');
const dir = process.env.AGENT_DIR, n = Number(process.env.AGENT_N);
let k = 1;
for (;; k++) { try { fs.mkdirSync(path.join(dir, 'claim-' + k)); break; } catch {} }
const edits = JSON.parse(fs.readFileSync(path.join(dir, 'edits.json'), 'utf8'));
const started = Date.now();
while (!fs.existsSync(path.join(dir, 'claim-' + n)) && Date.now() - started < 60000) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
const [file, search, replace] = edits[(k - 1) % edits.length];
fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(search, replace));
fs.mkdirSync(path.join(dir, 'edited-' + k));
// Every agent has edited its folder: the person's workspace must still be as it was.
while (fs.readdirSync(dir).filter((e) => e.startsWith('edited-')).length < n && Date.now() - started < 60000) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
const nm = fs.lstatSync('node_modules', { throwIfNoEntry: false });
fs.writeFileSync(path.join(dir, 'seen-' + k + '.json'), JSON.stringify({
  cwd: process.cwd(),
  workspaceCalc: fs.readFileSync(path.join(process.env.WORKSPACE, 'src/calc.js'), 'utf8'),
  nodeModulesLink: nm ? nm.isSymbolicLink() : null,
  nodeModulesIno: nm ? fs.statSync('node_modules/dep/index.js').ino : null,
}));
if (process.env.AGENT_EXIT) process.exit(Number(process.env.AGENT_EXIT));
if (process.env.AGENT_HANG) {
  fs.writeFileSync(path.join(dir, 'pid-' + k), String(process.pid));
  setInterval(() => {}, 1000);
}
`;

const FIX_ADD = ['src/calc.js', '  return a - b;', '  return a + b;'];
const FIX_BOTH = ['src/calc.js', 'return a - b;\n}\n\nfunction mul(a, b) {\n  return a + b;', 'return a + b;\n}\n\nfunction mul(a, b) {\n  return a * b;'];
const EDIT_TEST = ['test/calc.test.js', 'add(2, 3), 5)', 'add(2, 3), -1)'];

describe('candidates: several agents per attempt, each in its own copy of the workspace', function () {
  this.timeout(180_000);
  let project: string;
  let stateDir: string;
  let agentDir: string;
  beforeEach(() => {
    project = tempProject('calc');
    // Two tests fail: add and mul. An installed dependency the snapshots do not record.
    fs.mkdirSync(path.join(project, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(project, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    stateDir = tempDir('agent-candidates-state');
    agentDir = tempDir('agent-candidates-agent');
    fs.writeFileSync(path.join(agentDir, 'agent.js'), AGENT);
  });
  afterEach(() => {
    for (const d of [project, stateDir, agentDir]) fs.rmSync(d, { recursive: true, force: true });
  });

  async function engine(config: Partial<LoopConfig>, edits: string[][], env: NodeJS.ProcessEnv = {}) {
    fs.writeFileSync(path.join(agentDir, 'edits.json'), JSON.stringify(edits));
    const full = { ...DEFAULT_LOOP_CONFIG, autofix: 'off' as const, ...config };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: full.snapshotExcludes });
    const verifier = new CommandVerifier({ cwd: project, testCommand: 'node --test test/', tsc: 'off', timeoutMs: full.verifyTimeoutS * 1000 });
    const actor = new CommandActor({
      command: `node ${JSON.stringify(path.join(agentDir, 'agent.js'))}`, cwd: project, timeoutMs: 120_000,
      env: { AGENT_DIR: agentDir, AGENT_N: String(full.candidates ?? 1), WORKSPACE: project, ...env },
    });
    const e = new LoopEngine({
      cwd: project, actor, verifier, snapshots, copies: copiesOf(snapshots, () => undefined), clock: systemClock, config: full,
      redactor: createRedactor([]), retry: { baseMs: 1, maxMs: 5 },
    });
    return { e, snapshots };
  }

  const seen = (k: number) => JSON.parse(fs.readFileSync(path.join(agentDir, `seen-${k}.json`), 'utf8')) as { cwd: string; workspaceCalc: string; nodeModulesLink: boolean | null; nodeModulesIno: number | null };

  for (const parallel of [false, true]) it(`agents edit their copies at once; the workspace is untouched until the pick, then holds only the chosen edit${parallel ? ' (judged side by side, --candidates-parallel)' : ''}`, async () => {
    const { e, snapshots } = await engine({ candidates: 3, maxIterations: 1, ...(parallel ? { candidatesParallel: true } : {}) }, [EDIT_TEST, FIX_ADD, FIX_BOTH]);
    const state: RunState = await e.run(new AbortController().signal);
    assert.equal(state.outcome, 'green', `${state.reasonText}\n${JSON.stringify(state.iterations.map((it) => it.candidates), null, 1).slice(0, 3000)}`);
    for (const k of [1, 2, 3]) {
      const s = seen(k);
      assert.ok(s.cwd.startsWith(copiesRoot(snapshots.storeDir)), `agent ${k} worked in a copy, not in ${s.cwd}`);
      assert.ok(fs.readFileSync(path.join(project, 'src/calc.js'), 'utf8').startsWith(ORIGINAL.slice(0, 40)));
      assert.equal(s.workspaceCalc.slice(0, ORIGINAL.length), ORIGINAL, `agent ${k} saw the person's file as it was, after every agent had edited its copy`);
    }
    const cands = state.iterations[0]!.candidates!;
    // Which agent took which edit depends on which started first: the verdicts and the pick do not.
    assert.deepEqual(cands.map((c) => c.verdict).sort(), ['green', 'progress', 'refused']);
    const chosen = cands.filter((c) => c.chosen);
    assert.equal(chosen.length, 1);
    assert.equal(chosen[0]!.verdict, 'green');
    assert.deepEqual(chosen[0]!.files, ['src/calc.js']);
    const calc = fs.readFileSync(path.join(project, 'src/calc.js'), 'utf8');
    assert.match(calc, /return a \+ b;\n}\n\nfunction mul\(a, b\) {\n {2}return a \* b;/);
    assert.match(fs.readFileSync(path.join(project, 'test/calc.test.js'), 'utf8'), /add\(2, 3\), 5\)/, 'the refused agent never reached the test file');
    assert.equal(state.iterations.length, 1);
    assert.equal(state.llmCalls, 3, 'each agent is one call of the one attempt');
    assert.ok(!fs.existsSync(copiesRoot(snapshots.storeDir)) || fs.readdirSync(copiesRoot(snapshots.storeDir)).length === 0, 'no copy is left');
  });

  it('agents that exit with an error after editing their copies are judged, not taken for agents that changed nothing', async () => {
    const comment = (t: string) => ['src/calc.js', "'use strict';", `'use strict';\n// ${t}`];
    const { e } = await engine({ candidates: 2, maxIterations: 2, patience: 5 }, [comment('a'), comment('b'), comment('c'), comment('d')], { AGENT_EXIT: '3' });
    const state = await e.run(new AbortController().signal);
    assert.notEqual(state.reason, 'actor-error', state.reasonText);
    assert.equal(state.iterations.length, 2, state.reasonText);
    for (const it of state.iterations) assert.deepEqual(it.candidates!.map((c) => c.verdict), ['no-progress', 'no-progress']);
  });

  it('links the installed dependencies into every copy instead of copying them', async () => {
    const { e } = await engine({ candidates: 2, maxIterations: 1 }, [FIX_ADD, FIX_BOTH]);
    await e.run(new AbortController().signal);
    const ino = fs.statSync(path.join(project, 'node_modules', 'dep', 'index.js')).ino;
    for (const k of [1, 2]) {
      assert.equal(seen(k).nodeModulesLink, true, `node_modules in copy ${k} is a link`);
      assert.equal(seen(k).nodeModulesIno, ino, 'the very same files, not a copy of them');
    }
    assert.ok(!fs.lstatSync(path.join(project, 'node_modules')).isSymbolicLink());
  });

  it('a run stopped while its agents work removes their copies and leaves the workspace as it was', async () => {
    const before = fs.readFileSync(path.join(project, 'src/calc.js'), 'utf8');
    const { e, snapshots } = await engine({ candidates: 2, maxIterations: 1 }, [FIX_ADD, FIX_BOTH], { AGENT_HANG: '1' });
    const stop = new AbortController();
    const running = e.run(stop.signal);
    await waitUntil(() => fs.existsSync(path.join(agentDir, 'seen-1.json')) && fs.existsSync(path.join(agentDir, 'seen-2.json')), 'both agents editing their copies');
    const root = copiesRoot(snapshots.storeDir);
    assert.equal(fs.readdirSync(root).filter((n) => fs.statSync(path.join(root, n)).isDirectory()).length, 2, 'two copies while the agents work');
    stop.abort();
    const state = await running;
    assert.equal(state.outcome, 'cancelled');
    assert.ok(!fs.existsSync(copiesRoot(snapshots.storeDir)) || fs.readdirSync(copiesRoot(snapshots.storeDir)).length === 0, 'no copy is left');
    assert.equal(fs.readFileSync(path.join(project, 'src/calc.js'), 'utf8'), before);
  });

  it('a CLI run killed while its agents work leaves copies that the next start removes, with the workspace put back', async () => {
    fs.writeFileSync(path.join(agentDir, 'edits.json'), JSON.stringify([FIX_ADD, FIX_BOTH]));
    const before = fs.readFileSync(path.join(project, 'src/calc.js'), 'utf8');
    const { child, done } = startCli([
      'fix', '--cwd', project, '--state-dir', stateDir, '--test-cmd', 'node --test test/', '--tsc', 'off', '--autofix', 'off',
      '--actor', 'command', '--actor-cmd', `node ${JSON.stringify(path.join(agentDir, 'agent.js'))}`, '--candidates', '2',
    ], { env: { AGENT_DIR: agentDir, AGENT_N: '2', WORKSPACE: project, AGENT_HANG: '1' }, timeoutMs: 170_000 });
    try {
      await waitUntil(() => fs.existsSync(path.join(agentDir, 'pid-1')) && fs.existsSync(path.join(agentDir, 'pid-2')), 'both agents editing their copies');
      const root = copiesRoot(shadowDirFor(stateDir, canonicalWorkspace(project)));
      assert.equal(fs.readdirSync(root).filter((n) => fs.statSync(path.join(root, n)).isDirectory()).length, 2);
      child.kill('SIGKILL');
      await done;
      assert.equal(fs.readdirSync(root).filter((n) => fs.statSync(path.join(root, n)).isDirectory()).length, 2, 'a kill leaves the copies');
      const opened = await openWorkspace({ workspace: project, stateDir, runId: 'next' });
      await opened.journal.release();
      assert.ok(!fs.existsSync(root), 'the next start removed them');
      assert.equal(fs.readFileSync(path.join(project, 'src/calc.js'), 'utf8'), before);
    } finally {
      child.kill('SIGKILL');
      // The agents outlive the CLI killed under them: they are this test's processes, stopped by their ids.
      for (const k of [1, 2]) {
        const pidFile = path.join(agentDir, `pid-${k}`);
        if (fs.existsSync(pidFile)) try { process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL'); } catch { /* already gone */ }
      }
    }
  });

  it('a killed run\'s copies and their snapshots are removed when the next run takes the folder', async () => {
    const store = await openSnapshotStore({ workspace: project, stateDir, runId: 'killed' });
    const base = await store.snapshot('base');
    // What a run killed mid-attempt leaves: a copy's folder, and a snapshot of it in the store.
    const copy = await copiesOf(store, () => undefined).make(base.id);
    fs.writeFileSync(path.join(copy.dir, 'src/calc.js'), 'changed\n');
    const left = await copy.snapshots.snapshot('agent');
    assert.ok(fs.existsSync(copy.dir));
    const opened = await openWorkspace({ workspace: project, stateDir, runId: 'next' });
    try {
      assert.ok(!fs.existsSync(copy.dir), 'the leftover copy is gone');
      assert.ok(!fs.existsSync(copiesRoot(store.storeDir)));
      assert.equal(await opened.snapshots.hasAll([left.id]), false, 'its snapshot refs are gone');
      assert.equal(await opened.snapshots.hasAll([base.id]), true, 'the run\'s own snapshots stay');
    } finally {
      await opened.journal.release();
    }
  });
});

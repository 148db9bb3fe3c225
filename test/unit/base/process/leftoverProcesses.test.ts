// Nothing a test command or an agent starts outlives the run: setsid'd sleeps, double forks, nohup, a daemon that
// ignores SIGTERM and one that restarts its child, after a normal exit, a timeout, a cancel, through the CLI.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCommand } from '../../../../src/base/process/runCommand';
import { CommandVerifier } from '../../../../src/verify/commandVerifier';
import { CommandActor } from '../../../../src/actors/commandActor';
import { runCli } from '../../support/cli';
import { cleanUp, daemonSet, survivors } from '../../support/daemons';
import type { DaemonSet } from '../../support/daemons';

const TAP_PASS = `echo 'ok 1 - works'; echo '1..1'`;

// macOS and Windows have no /proc to find a daemon that left the tree: the tests show as pending, with the reason
// in the suite's title, never as a silent pass.
const SKIP_REASON = process.platform === 'linux' ? null : `skipped on ${process.platform}: only Linux can find processes that left the tree (no /proc)`;

describe(`processes left after a run (Linux: found by their run mark in /proc)${SKIP_REASON ? ` — ${SKIP_REASON}` : ''}`, function () {
  before(function () {
    if (SKIP_REASON) this.skip();
  });

  let dir: string;
  let set: DaemonSet;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-daemons-'));
    set = daemonSet();
  });
  afterEach(() => {
    cleanUp(set, dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('after a command that exits normally, none of the daemons it started is running', async () => {
    const r = await runCommand({ command: `${set.script}\necho done`, cwd: dir });
    assert.strictEqual(r.exitCode, 0);
    assert.match(r.output, /done/);
    assert.strictEqual(survivors(dir, set), '');
  });

  it('after a command that hangs past its timeout, none of the daemons it started is running', async () => {
    // 5 s: every daemon has started (and written its pid) well before, even on a busy machine.
    const r = await runCommand({ command: `${set.script}\nsleep 300`, cwd: dir, timeoutMs: 5000, killGraceMs: 300 });
    assert.strictEqual(r.timedOut, true);
    assert.strictEqual(survivors(dir, set), '');
  });

  it('after a cancelled command, none of the daemons it started is running', async () => {
    const ac = new AbortController();
    const run = runCommand({ command: `${set.script}\ntouch ready\nsleep 300`, cwd: dir, signal: ac.signal, killGraceMs: 300 });
    while (!fs.existsSync(path.join(dir, 'ready'))) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    assert.strictEqual((await run).cancelled, true);
    assert.strictEqual(survivors(dir, set), '');
  });

  it('after the verifier judged a green run, none of the daemons the tests started is running', async () => {
    const verifier = new CommandVerifier({ cwd: dir, testCommand: `${set.script}\n${TAP_PASS}`, tsc: 'off', timeoutMs: 60_000 });
    const w = await verifier.verify();
    assert.strictEqual(w.green, true);
    assert.strictEqual(survivors(dir, set), '');
  });

  it('after `greenloop verify` returns, normally or on its timeout, nothing the tests started is running', async () => {
    const normal = await runCli(['verify', '--cwd', dir, '--test-cmd', `${set.script}\n${TAP_PASS}`, '--tsc', 'off']);
    assert.strictEqual(normal.code, 0, normal.stderr);
    assert.strictEqual(survivors(dir, set), '');

    cleanUp(set, dir);
    set = daemonSet();
    const hung = await runCli(['verify', '--cwd', dir, '--test-cmd', `${set.script}\nsleep 300`, '--tsc', 'off', '--timeout-s', '5']);
    assert.strictEqual(hung.code, 1, hung.stderr);
    assert.strictEqual(JSON.parse(hung.stdout).timedOut, true);
    assert.strictEqual(survivors(dir, set), '');
  });

  it('after an agent command finishes, none of the daemons it started is running', async () => {
    const actor = new CommandActor({ command: `${set.script}\necho edited`, timeoutMs: 60_000 });
    const res = await actor.propose({ system: '', prompt: 'fix it', iteration: 1, cwd: dir, signal: new AbortController().signal });
    assert.strictEqual(res.kind, 'workspace-edited');
    assert.strictEqual(survivors(dir, set), '');
  });

  it('a process that exits while it is killing a tree (stopped, not yet continued) takes the tree with it, none left stopped', async () => {
    const killTreeModule = path.resolve(__dirname, '../../../../src/base/process/killTree.ts');
    // The child starts a tree, starts killing it, and exits at once: between the freeze and the SIGCONT.
    const script = `const { spawn } = require('child_process');
      const { killTree } = require(${JSON.stringify(killTreeModule)});
      const c = spawn('/bin/sh', ['-c', 'sleep 300 & sleep 300'], { detached: true, stdio: 'ignore' });
      setTimeout(() => { console.log(c.pid); killTree(c.pid); process.exit(0); }, 300);`;
    const { execFileSync } = await import('child_process');
    const group = Number(execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { encoding: 'utf8' }).trim());
    const members = () => fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === group && fields[0] !== 'Z';
      } catch {
        return false;
      }
    });
    // SIGKILL is immediate; the wait is only for the kernel to reap, and wide on a busy machine.
    for (let i = 0; i < 200 && members().length; i++) await new Promise((r) => setTimeout(r, 50));
    const left = members();
    for (const p of left) try { process.kill(Number(p), 'SIGKILL'); } catch { /* gone */ }
    assert.deepStrictEqual(left, [], 'no process of the tree is left (stopped or running)');
  });
});

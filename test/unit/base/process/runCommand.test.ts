import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { omittedMarker } from '../../../../src/base/process/boundedBuffer';
import { CommandCannotStart, runCommand } from '../../../../src/base/process/runCommand';
import { alive } from '../../support/processes';

const SUPPORT = path.join(__dirname, '..', '..', 'support');
const NODE = JSON.stringify(process.execPath);

/** Bounded by a minute only to catch a hang: the files waited for appear within a second or two on a busy machine. */
async function waitForFile(file: string, ms = 60_000): Promise<string> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (fs.existsSync(file) && fs.statSync(file).size > 0) return fs.readFileSync(file, 'utf8');
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${file} never appeared`);
}

describe('runCommand', function () {
  if (process.platform === 'win32') return;
  let dir: string;
  const leaked: number[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-run-'));
  });
  afterEach(() => {
    for (const pid of leaked.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps stdout and stderr in the order they were written, and streams the same text live', async () => {
    // Blocking writes (the shell's echo, fs.writeSync): Node's async process.stdout may itself reorder
    // two streams under back-pressure, which is the child's doing, not the capture's.
    const script = "const fs = require('fs'); for (let i = 0; i < 300; i++) { fs.writeSync(1, 'out ' + i + '\\n'); fs.writeSync(2, 'err ' + i + '\\n'); }";
    const command = `for i in 1 2 3; do echo "sh out $i"; echo "sh err $i" >&2; done; ${NODE} -e ${JSON.stringify(script)}`;
    const live: string[] = [];
    const r = await runCommand({ command, cwd: dir, onData: (c) => live.push(c) });
    const expected = [1, 2, 3].map((i) => `sh out ${i}\nsh err ${i}\n`).join('') +
      Array.from({ length: 300 }, (_, i) => `out ${i}\nerr ${i}\n`).join('');
    assert.strictEqual(r.output, expected);
    assert.strictEqual(live.join(''), expected);
    assert.strictEqual(r.exitCode, 0);
    assert.strictEqual(r.droppedBytes, 0);
  });

  it('keeps the first 64 KB and the last 1 MB of a 5 MB output and says exactly how much it left out', async () => {
    const total = 5 * 1024 * 1024;
    const r = await runCommand({ command: `${NODE} ${JSON.stringify(path.join(SUPPORT, 'printBytes.js'))} ${total}`, cwd: dir });
    const dropped = total - 64 * 1024 - 1024 * 1024;
    assert.strictEqual(r.droppedBytes, dropped);
    assert.ok(r.output.startsWith(`00000001 ${'x'.repeat(54)}\n`));
    assert.ok(r.output.endsWith(`${String(total / 64).padStart(8, '0')} ${'x'.repeat(54)}\n`));
    const marker = omittedMarker(dropped);
    assert.strictEqual(r.output.split(marker).length, 2, 'marker appears exactly once');
    assert.strictEqual(r.output.length, 64 * 1024 + marker.length + 1 + 1024 * 1024);
    const [head, tail] = r.output.split(`${marker}\n`);
    assert.strictEqual(head.length, 64 * 1024);
    assert.strictEqual(tail.length, 1024 * 1024);
  });

  it('never shows half a character where output was cut or split across writes', async () => {
    // 10 × "é" (2 bytes each): a 5-byte head and tail both fall inside a character.
    const cut = await runCommand({ command: `printf 'éééééééééé'`, cwd: dir, headBytes: 5, tailBytes: 5 });
    assert.strictEqual(cut.output, `éé\n${omittedMarker(12)}\néé`);
    assert.strictEqual(cut.droppedBytes, 12);

    const script = "process.stdout.write(Buffer.from([0xe2, 0x82])); setTimeout(() => process.stdout.write(Buffer.from([0xac, 0x0a])), 100);";
    const live: string[] = [];
    const split = await runCommand({ command: `${NODE} -e ${JSON.stringify(script)}`, cwd: dir, onData: (c) => live.push(c) });
    assert.strictEqual(split.output, '€\n');
    assert.strictEqual(live.join(''), '€\n');
    assert.ok(live.every((c) => !c.includes('\uFFFD')));
  });

  it('reports the exit code, and the signal when the command was killed', async () => {
    const failed = await runCommand({ command: 'echo failing; exit 3', cwd: dir });
    assert.deepStrictEqual([failed.exitCode, failed.signal, failed.output, failed.notFound], [3, null, 'failing\n', false]);
    const killed = await runCommand({ command: 'kill -KILL $$', cwd: dir });
    assert.deepStrictEqual([killed.exitCode, killed.signal, killed.timedOut], [null, 'SIGKILL', false]);
  });

  it('on timeout kills the shell, its children and a grandchild that sleeps in the background', async () => {
    const bgFile = path.join(dir, 'bg.pid');
    const shFile = path.join(dir, 'sh.pid');
    const command = `echo $$ > sh.pid; sh -c 'sleep 300 & echo $! > bg.pid; sleep 300'`;
    // 3 s: both shells have written their pids by then, even on a busy machine.
    const r = await runCommand({ command, cwd: dir, timeoutMs: 3000 });
    const pids = [Number(fs.readFileSync(shFile, 'utf8')), Number(fs.readFileSync(bgFile, 'utf8'))];
    leaked.push(...pids);
    assert.strictEqual(r.timedOut, true);
    assert.strictEqual(r.cancelled, false);
    assert.strictEqual(r.exitCode, null);
    assert.strictEqual(r.signal, 'SIGTERM');
    assert.ok(r.durationMs >= 2950, `stopped after ${r.durationMs} ms, before the 3 s timeout`);
    for (const pid of pids) assert.strictEqual(alive(pid), false, `process ${pid} survived the timeout`);
  });

  it('on timeout also kills a detached grandchild that left the process group and ignores SIGTERM', async () => {
    const pidFile = path.join(dir, 'tree.json');
    const command = `${NODE} ${JSON.stringify(path.join(SUPPORT, 'detachedGrandchild.js'))} ${JSON.stringify(pidFile)}`;
    // 10 s: node has started both processes by then, even on a busy machine (the timeout must find the tree whole).
    const run = runCommand({ command, cwd: dir, timeoutMs: 10_000, killGraceMs: 300 });
    const tree = JSON.parse(await waitForFile(pidFile)) as { parent: number; grandchild: number };
    leaked.push(tree.parent, tree.grandchild);
    assert.strictEqual(alive(tree.grandchild), true, 'the grandchild runs while the command does');
    const r = await run;
    assert.strictEqual(r.timedOut, true);
    assert.match(r.output, /grandchild started/);
    assert.strictEqual(alive(tree.parent), false, 'the child survived');
    assert.strictEqual(alive(tree.grandchild), false, 'the detached grandchild survived');
  });

  it('cancels through an AbortSignal and leaves no process of the tree behind', async () => {
    const pidFile = path.join(dir, 'tree.json');
    const command = `${NODE} ${JSON.stringify(path.join(SUPPORT, 'detachedGrandchild.js'))} ${JSON.stringify(pidFile)}`;
    const ac = new AbortController();
    const run = runCommand({ command, cwd: dir, signal: ac.signal, killGraceMs: 300 });
    const tree = JSON.parse(await waitForFile(pidFile)) as { parent: number; grandchild: number };
    leaked.push(tree.parent, tree.grandchild);
    ac.abort();
    const r = await run;
    assert.strictEqual(r.cancelled, true);
    assert.strictEqual(r.timedOut, false);
    assert.strictEqual(alive(tree.parent), false, 'the child survived');
    assert.strictEqual(alive(tree.grandchild), false, 'the detached grandchild survived');
  });

  it('does not start the command at all when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await runCommand({ command: 'touch ran', cwd: dir, signal: ac.signal });
    assert.strictEqual(r.cancelled, true);
    assert.strictEqual(fs.existsSync(path.join(dir, 'ran')), false);
  });

  it('returns once the command is done even if it left a background process holding the output open', async () => {
    const r = await runCommand({ command: 'sleep 300 & echo $! > bg.pid; echo done', cwd: dir });
    const bg = Number(fs.readFileSync(path.join(dir, 'bg.pid'), 'utf8'));
    leaked.push(bg);
    assert.strictEqual(r.exitCode, 0);
    assert.strictEqual(r.output, 'done\n');
    // Cleaned up at once; the bound only catches a process that is never cleaned up.
    const end = Date.now() + 30_000;
    while (alive(bg) && Date.now() < end) await new Promise((res) => setTimeout(res, 20));
    assert.strictEqual(alive(bg), false, 'the leftover background process was not cleaned up');
  });

  it('says when the shell cannot find the command, and only then', async () => {
    const missing = await runCommand({ command: 'greenloop-no-such-tool --run', cwd: dir });
    assert.strictEqual(missing.notFound, true);
    assert.strictEqual(missing.exitCode, 127);
    assert.match(missing.output, /greenloop-no-such-tool/);
    const plain127 = await runCommand({ command: 'echo all good; exit 127', cwd: dir });
    assert.strictEqual(plain127.notFound, false);
  });

  it('rejects a missing working directory with one readable sentence', async () => {
    const missing = path.join(dir, 'nope');
    await assert.rejects(runCommand({ command: 'true', cwd: missing }), (err: Error) => {
      assert.ok(err instanceof CommandCannotStart);
      assert.ok(err.message.includes(missing));
      assert.ok(!err.message.includes('\n') && !/ at /.test(err.message));
      return true;
    });
  });

  it('passes the environment through and runs in the given folder', async () => {
    const r = await runCommand({ command: 'echo "$GREENLOOP_PROBE"; pwd', cwd: dir, env: { ...process.env, GREENLOOP_PROBE: 'probe-42' } });
    assert.strictEqual(r.output, `probe-42\n${fs.realpathSync(dir)}\n`);
  });

  it('measures how long the command ran', async () => {
    const r = await runCommand({ command: 'sleep 0.3', cwd: dir });
    assert.ok(r.durationMs >= 250 && r.durationMs < 10_000, `durationMs ${r.durationMs}`);
  });
});

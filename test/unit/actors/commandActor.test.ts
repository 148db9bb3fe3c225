import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActorError } from '../../../src/ports/actor';
import type { ActorRequest } from '../../../src/ports/actor';
import { isAbortError } from '../../../src/base/abort';
import { CommandActor } from '../../../src/actors/commandActor';

const PROMPT = 'Attempt 3 of 8.\nFailing: Calculator > add\n  expected 5, got -1\nFix src/calc.js.';
const SYSTEM = 'Test files are protected.';
/** An agent has no system channel: the rules lead what it reads. */
const AGENT_TEXT = `${SYSTEM}\n\n${PROMPT}`;

function request(cwd: string, signal = new AbortController().signal): ActorRequest {
  return { system: SYSTEM, prompt: PROMPT, iteration: 3, cwd, signal };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

async function failure(p: Promise<unknown>): Promise<ActorError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ActorError, `expected an ActorError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the agent to fail');
}

describe('CommandActor on real shell commands', function () {
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-cmd-actor-'));
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src/calc.js'), 'exports.add = (a, b) => a - b;\n');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('gives a script the prompt on stdin and in $GREENLOOP_PROMPT_FILE and lets it edit the workspace', async () => {
    fs.writeFileSync(
      path.join(ws, 'agent.sh'),
      [
        '#!/bin/sh',
        'cat "$GREENLOOP_PROMPT_FILE" > from-file.txt',
        'cat > from-stdin.txt',
        'echo "$GREENLOOP_PROMPT_FILE" > prompt-path.txt',
        'echo "agent: iteration $GREENLOOP_ITERATION, model $AGENT_MODEL"',
        "sed 's/a - b/a + b/' src/calc.js > src/calc.tmp && mv src/calc.tmp src/calc.js",
        'echo "agent: fixed src/calc.js" >&2',
      ].join('\n'),
      { mode: 0o755 },
    );
    const actor = new CommandActor({ command: './agent.sh', timeoutMs: 30_000, env: { AGENT_MODEL: 'tiny' } });
    assert.equal(actor.label, 'command:./agent.sh');
    const res = await actor.propose(request(ws));
    assert.equal(res.kind, 'workspace-edited');
    assert.equal(fs.readFileSync(path.join(ws, 'src/calc.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
    assert.equal(fs.readFileSync(path.join(ws, 'from-file.txt'), 'utf8'), AGENT_TEXT);
    assert.equal(fs.readFileSync(path.join(ws, 'from-stdin.txt'), 'utf8'), AGENT_TEXT);
    if (res.kind === 'workspace-edited') assert.equal(res.transcript, 'agent: iteration 3, model tiny\nagent: fixed src/calc.js\n');
    assert.deepEqual(res.usage, { prompt: Math.ceil(AGENT_TEXT.length / 4), completion: Math.ceil(res.kind === 'workspace-edited' ? res.transcript.length / 4 : 0), estimated: true });
    // The prompt file is gone once the agent is done.
    assert.equal(fs.existsSync(fs.readFileSync(path.join(ws, 'prompt-path.txt'), 'utf8').trim()), false);
  });

  it('feeds stdin to a compound command line as a whole', async () => {
    const actor = new CommandActor({ command: 'head -n 1 > first.txt && wc -l < "$GREENLOOP_PROMPT_FILE" > count.txt', cwd: ws, timeoutMs: 30_000 });
    await actor.propose(request(os.tmpdir()));
    assert.equal(fs.readFileSync(path.join(ws, 'first.txt'), 'utf8'), 'Test files are protected.\n');
    assert.equal(fs.readFileSync(path.join(ws, 'count.txt'), 'utf8').trim(), '5');
  });

  it('reports a non-zero exit with the last lines of output, and the same failure with the same signature', async () => {
    const command = 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo "noise $i"; done; echo "error: quota exceeded (pid $$)" >&2; exit 3';
    const actor = new CommandActor({ command, timeoutMs: 30_000 });
    const first = await actor.propose(request(ws));
    assert.equal(first.kind, 'workspace-edited');
    const f = first.kind === 'workspace-edited' ? first.failure : undefined;
    assert.ok(f, 'the failure is reported');
    assert.match(f.text, /^The agent command exited with code 3; its last output:\n/);
    assert.match(f.text, /error: quota exceeded \(pid \d+\)$/);
    assert.ok(!f.text.includes('noise 1\n'), 'the whole output was pasted instead of its tail');
    const again = await actor.propose(request(ws));
    assert.equal(again.kind === 'workspace-edited' ? again.failure?.signature : '', f.signature, 'another pid is the same failure');
    const other = await new CommandActor({ command: 'echo "error: disk full" >&2; exit 3', timeoutMs: 30_000 }).propose(request(ws));
    assert.notEqual(other.kind === 'workspace-edited' ? other.failure?.signature : '', f.signature);
  });

  it('says which agent command was not found', async () => {
    const actor = new CommandActor({ command: 'greenloop-no-such-agent-xyz --yes', timeoutMs: 30_000 });
    const err = await failure(actor.propose(request(ws)));
    assert.equal(err.kind, 'fatal');
    assert.equal(err.message, 'Agent command not found: greenloop-no-such-agent-xyz; install it or change the agent command (--actor-cmd).');
  });

  it('stops a hanging agent and its children at the timeout, as a transient failure', async () => {
    // 3 s: the shell has surely started its child and written its pid by then, even on a busy machine.
    const actor = new CommandActor({ command: 'sleep 300 & echo $! > child.pid; wait', timeoutMs: 3000 });
    const err = await failure(actor.propose(request(ws)));
    assert.equal(err.kind, 'transient');
    assert.equal(err.message, 'The agent ran longer than its 3 s limit (--agent-timeout-s) and was stopped; its unfinished changes were undone.');
    const child = Number(fs.readFileSync(path.join(ws, 'child.pid'), 'utf8'));
    assert.ok(await until(() => !alive(child), 30_000), `background child ${child} survived the timeout`);
  });

  it('ends promptly on cancel, kills the agent and removes the prompt file', async () => {
    const actor = new CommandActor({ command: 'echo "$GREENLOOP_PROMPT_FILE" > prompt-path.txt; sleep 300 & echo $! > child.pid; wait', timeoutMs: 600_000 });
    const controller = new AbortController();
    const proposing = actor.propose(request(ws, controller.signal));
    // Cancel once the agent is at work (its child started), whatever the machine's speed.
    assert.ok(await until(() => fs.existsSync(path.join(ws, 'child.pid')) && fs.statSync(path.join(ws, 'child.pid')).size > 0, 30_000), 'the agent never started');
    const started = Date.now();
    controller.abort();
    await assert.rejects(proposing, (err: unknown) => isAbortError(err));
    // Waiting for the agent would take its 300 s sleep: a few seconds is "at once" on any machine.
    assert.ok(Date.now() - started < 30_000, 'cancelling waited for the agent');
    const child = Number(fs.readFileSync(path.join(ws, 'child.pid'), 'utf8'));
    assert.ok(await until(() => !alive(child), 30_000), `background child ${child} survived the cancel`);
    assert.equal(fs.existsSync(fs.readFileSync(path.join(ws, 'prompt-path.txt'), 'utf8').trim()), false);
  });

  it('reports a missing working folder as a fatal error in one sentence', async () => {
    const actor = new CommandActor({ command: 'true', cwd: path.join(ws, 'gone'), timeoutMs: 30_000 });
    const err = await failure(actor.propose(request(ws)));
    assert.equal(err.kind, 'fatal');
    assert.match(err.message, /does not exist or is not a folder/);
  });
});

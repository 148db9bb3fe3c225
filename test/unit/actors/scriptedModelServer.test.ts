import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OpenAIActor } from '../../../src/actors/openaiActor';
import type { ActorRequest } from '../../../src/ports/actor';

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/scriptedModelServer.ts');

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before printing its URL`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const request = (): ActorRequest => ({ system: 's', prompt: 'p', iteration: 1, cwd: ROOT, signal: new AbortController().signal });

describe('scripts/scriptedModelServer (standalone scripted model)', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-scripted-'));
  });
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    child = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the steps of a JSON script file in order and prints its base URL', async () => {
    const file = path.join(dir, 'script.json');
    fs.writeFileSync(file, JSON.stringify({ steps: [{ content: 'first answer' }, { status: 401, body: { error: { message: 'No key.' } } }] }));
    child = start([file]);
    const url = await firstLine(child);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const actor = new OpenAIActor({ baseUrl: url, model: 'scripted', stream: true });
    const res = await actor.propose(request());
    assert.equal(res.kind === 'text' && res.text, 'first answer');
    await assert.rejects(actor.propose(request()), /refused the request \(401\): No key\./);
    await assert.rejects(actor.propose(request()), /ran out of steps after 2 answers/);
  });

  it('exits 2 with one line when the script is not valid JSON', async () => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '[{"content": ');
    child = start([file]);
    const { code, stderr } = await exitOf(child);
    assert.equal(code, 2);
    assert.match(stderr.trim(), /^Could not read the script .*broken\.json: .*; it must be a JSON array of steps\.$/);
  });
});

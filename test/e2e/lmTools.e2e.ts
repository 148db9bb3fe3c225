import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot } from './harness/browser';
import { startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { eventually } from './harness/poll';
import { packageExtension } from './harness/vsix';
import { openViewContainer, runCommand, treeRows } from './harness/workbench';
import { toolCaller, writeToolCallerExtension, type ToolCallRecord } from './fixtures/toolCallerExtension';

// Issue 13 in a real VS Code: another extension calls Greenloop's greenloop_verify tool through vscode.lm.invokeTool
// (as a chat agent's host does, here without any chat model): the calc workspace's 2 failing tests answer "continue",
// the fixed workspace "stop, green", and the agent's session shows in the Loop history like a run.
describe('Greenloop in a real VS Code: its language model tools called by another extension', function () {
  this.timeout(240_000);
  let s: GreenloopSession;
  let tmp: string;
  let out: string;

  before(async function () {
    this.timeout(300_000);
    tmp = mkdtempSync(join(tmpdir(), 'greenloop-e2e-tools-'));
    out = join(tmp, 'answers.jsonl');
    const caller = await packageExtension(writeToolCallerExtension(join(tmp, 'caller')), join(tmp, 'greenloop-tool-caller.vsix'));
    s = await startGreenloopSession({ extraVsix: [caller], env: () => ({ [toolCaller.outEnv]: out }) });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await s?.reportFailure(this.currentTest.title);
  });
  after(async () => {
    await s?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const answers = (): ToolCallRecord[] => (existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

  async function verify(n: number): Promise<{ record: ToolCallRecord; text: string; json: Record<string, unknown> }> {
    await runCommand(s.browser.page, toolCaller.verifyTitle);
    const all = await eventually(`answer ${n} of greenloop_verify`, async () => answers(), (a) => a.length >= n, 90_000);
    const record = all[n - 1];
    assert.equal(record.error, undefined, `invokeTool failed: ${record.error}`);
    return { record, text: record.parts![0], json: JSON.parse(record.parts![1]) };
  }

  it('answers continue with the 2 failing tests, then stop/green after the fix; the session is in the Loop history', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'tools');
    await s.open(ws);

    const first = await verify(1);
    for (const name of ['greenloop_verify', 'greenloop_rollback', 'greenloop_fixUntilGreen']) assert.ok(first.record.tools.includes(name), `vscode.lm.tools lists ${name}: ${first.record.tools.join(', ')}`);
    assert.match(first.text, /^CONTINUE: check 0 of 8/);
    assert.match(first.text, /Failing now: 2 \(2 at the start, 2 at best\)/);
    assert.equal(first.json.decision, 'continue');
    assert.equal((first.json.failing as unknown[]).length, 2);

    const calc = join(ws, 'src', 'calc.js');
    writeFileSync(calc, readFileSync(calc, 'utf8').replace('return a - b;', 'return a + b;').replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;'));
    const second = await verify(2);
    assert.match(second.text, /^GREEN: every test passes/);
    assert.equal(second.json.decision, 'stop');
    assert.equal(second.json.reason, 'green');

    await openViewContainer(page, ui.container);
    await eventually('the session in the Loop history', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Green'));
    await screenshot(page, 'lm-tools-history');
  });
});

import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot } from './harness/browser';
import { startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { ceiling, patientTests } from './harness/patience';
import { eventually } from './harness/poll';
import { packageExtension } from './harness/vsix';
import { openViewContainer, pickQuickInputRow, runCommand, treeRows } from './harness/workbench';
import { runTestsOnDisk } from './harness/workspaces';
import { toolCaller, writeToolCallerExtension, type ToolCallRecord } from './fixtures/toolCallerExtension';
import { answer, FIX_ADD, FIX_MUL } from '../support/calcAnswers';

// Issue 13 in a real VS Code: another extension calls Greenloop's greenloop_verify tool through vscode.lm.invokeTool
// (as a chat agent's host does, here without any chat model): the calc workspace's 2 failing tests answer "continue",
// the fixed workspace "stop, green", and the agent's session shows in the Loop history like a run. Issue 22: VS Code's
// MCP client starts the server Greenloop's provider defines and its verify answers; greenloop_fixUntilGreen runs the
// loop to green after the person confirms.
describe('Greenloop in a real VS Code: its language model tools called by another extension', function () {
  patientTests(240_000);
  let s: GreenloopSession;
  let tmp: string;
  let out: string;

  before(async function () {
    this.timeout(ceiling(300_000));
    tmp = mkdtempSync(join(tmpdir(), 'greenloop-e2e-tools-'));
    out = join(tmp, 'answers.jsonl');
    const caller = await packageExtension(writeToolCallerExtension(join(tmp, 'caller')), join(tmp, 'greenloop-tool-caller.vsix'));
    s = await startGreenloopSession({ extraVsix: [caller], env: () => ({ [toolCaller.outEnv]: out }) });
  });
  afterEach(async function () {
    await s?.afterTest(this.currentTest);
  });
  after(async function () {
    this.timeout(ceiling(120_000));
    await s?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const answers = (): ToolCallRecord[] => (existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

  /** Runs one of the caller's commands, answers VS Code's confirmation dialog when one is expected, and returns the answer. */
  async function call(title: string, confirm?: string): Promise<ToolCallRecord> {
    const page = s.browser.page;
    const before = answers().length;
    await runCommand(page, title);
    if (confirm) {
      // VS Code asks the person before a tool that declares a confirmation runs: a dialog, as for a chat's tool call.
      const dialog = page.locator('.monaco-dialog-box').filter({ hasText: confirm });
      await dialog.waitFor({ state: 'visible', timeout: ceiling(120_000) });
      await screenshot(page, `tools-confirm-${title.replace(/\W+/g, '-')}`);
      await dialog.getByRole('button', { name: 'Yes' }).click();
    }
    const all = await eventually(`the answer to "${title}"`, async () => answers(), (a) => a.length > before, 180_000);
    const record = all[before];
    assert.equal(record.error, undefined, `invokeTool failed: ${record.error}`);
    return record;
  }

  async function verify(): Promise<{ record: ToolCallRecord; text: string; json: Record<string, unknown> }> {
    const record = await call(toolCaller.verifyTitle);
    return { record, text: record.parts![0], json: JSON.parse(record.parts![1]) };
  }

  it('answers continue with the 2 failing tests, then stop/green after the fix; the session is in the Loop history', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'tools');
    await s.open(ws);

    const first = await verify();
    for (const name of ['greenloop_verify', 'greenloop_rollback', 'greenloop_fixUntilGreen']) assert.ok(first.record.tools.includes(name), `vscode.lm.tools lists ${name}: ${first.record.tools.join(', ')}`);
    assert.match(first.text, /^CONTINUE: check 0 of 8/);
    assert.match(first.text, /Failing now: 2 \(2 at the start, 2 at best\)/);
    assert.equal(first.json.decision, 'continue');
    assert.equal((first.json.failing as unknown[]).length, 2);

    const calc = join(ws, 'src', 'calc.js');
    writeFileSync(calc, readFileSync(calc, 'utf8').replace('return a - b;', 'return a + b;').replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;'));
    const second = await verify();
    assert.match(second.text, /^GREEN: every test passes/);
    assert.equal(second.json.decision, 'stop');
    assert.equal(second.json.reason, 'green');

    await openViewContainer(page, ui.container);
    await eventually('the session in the Loop history', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Green'));
    await screenshot(page, 'lm-tools-history');
  });

  // Issue 22 item 8: the MCP server definition provider and greenloop_fixUntilGreen, each driven in a real VS Code.
  it('its MCP server, started by VS Code\'s own MCP client, answers verify; greenloop_fixUntilGreen asks first, then fixes to green', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'agents');
    await s.open(ws);

    // VS Code's MCP server list asks Greenloop's provider (activating the extension for it) for the folder's server
    // (`greenloop mcp --cwd <folder>`); the person starts it there, and VS Code offers its tools beside the
    // extension's own: its verify checks the folder as the extension's tool does.
    await runCommand(page, toolCaller.mcpListTitle);
    await pickQuickInputRow(page, /^Greenloop/, 60_000);
    await pickQuickInputRow(page, /^Start Server/);
    // VS Code shows the server's output as it starts; it says when the server has listed its tools (the editor draws
    // spaces as no-break spaces, which \s matches).
    await page.locator('#workbench\\.parts\\.panel .view-lines', { hasText: /Discovered\s\d+\stools/ }).first().waitFor({ state: 'visible', timeout: ceiling(120_000) });
    const mcp = await call(toolCaller.mcpVerifyTitle, 'Verify the workspace (Greenloop)');
    assert.match(mcp.tool ?? '', /^mcp_.*_verify$/, `the MCP server's verify tool: ${mcp.tools.filter((t) => t.startsWith('mcp_')).join(', ')}`);
    assert.notEqual(mcp.tool, 'greenloop_verify');
    // VS Code hands a tool with an output schema its structured answer; the text for the model is part of it.
    const checked = JSON.parse(mcp.parts!.find((p) => p.startsWith('{'))!) as { check: number; decision: string; failing: { id: string }[]; session: string; text: string };
    assert.equal(checked.check, 0);
    assert.equal(checked.decision, 'continue');
    assert.deepEqual(checked.failing.map((f) => f.id), ['calc > adds', 'calc > multiplies']);
    assert.match(checked.session, /^mcp:/, 'a session of the MCP server, not of the extension\'s own tool');
    assert.match(checked.text, /^CONTINUE: check 0 of \d+, .*\nFailing now: 2 \(2 at the start, 2 at best\)/);

    // The loop itself, handed to Greenloop by another extension: VS Code asks the person first.
    const asked = s.model.requests.length;
    s.model.push(answer(FIX_ADD), answer(FIX_MUL));
    const fixed = await call(toolCaller.fixTitle, 'Fix agents until green?');
    assert.match(fixed.parts![0], /^GREEN after 2 attempts: every test passes\./);
    assert.equal(JSON.parse(fixed.parts![1]).outcome, 'green');
    assert.equal(s.model.requests.length - asked, 2, 'one model call per attempt');
    const onDisk = await runTestsOnDisk(ws);
    assert.equal(onDisk.code, 0, `npm test passes after the tool's run:\n${onDisk.output}`);
    await openViewContainer(page, ui.container);
    await eventually('the run in the Loop history', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Green' && / · 2 → 0 failing$/.test(row.description)));
    await screenshot(page, 'lm-tools-fix');
  });
});

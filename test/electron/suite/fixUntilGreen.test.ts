// "Fix until green" through VS Code's own API in a desktop VS Code: the command runs the loop against a scripted
// model on loopback, and the workspace's tests really pass afterwards.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

const execFileP = promisify(execFile);

describe('Greenloop in desktop VS Code: Fix until green', function () {
  let model: FakeOpenAIServer;
  const workspace = process.env.GREENLOOP_ELECTRON_WORKSPACE ?? '';

  before(async () => {
    assert.ok(workspace, 'runTest.ts passes the workspace in GREENLOOP_ELECTRON_WORKSPACE');
    model = await startFakeOpenAIServer([answer(FIX_ADD), answer(FIX_MUL)]);
    const config = vscode.workspace.getConfiguration('greenloop');
    await config.update('model.provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await config.update('model.baseUrl', model.url, vscode.ConfigurationTarget.Global);
    await config.update('model.name', 'scripted', vscode.ConfigurationTarget.Global);
    await config.update('tsc', 'off', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await model?.close();
  });

  it('runs the loop to green: two model calls, and npm test passes on disk', async () => {
    // The command resolves when the run has finished.
    await vscode.commands.executeCommand('greenloop.fixUntilGreen');
    assert.equal(model.requests.length, 2, 'one model call per attempt');
    assert.match(readFileSync(join(workspace, 'src', 'calc.js'), 'utf8'), /return a \* b;/);
    const { stdout } = await execFileP('npm', ['test', '--silent'], { cwd: workspace });
    assert.match(stdout, /# fail 0/);
  });
});

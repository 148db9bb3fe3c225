import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, screenshot } from './harness/browser';
import type { E2eBrowser } from './harness/browser';
import { extensionHostLog, readLog, startCodeServer } from './harness/codeServer';
import type { CodeServer } from './harness/codeServer';
import { ceiling } from './harness/patience';
import { eventually } from './harness/poll';
import { stillRunning } from './harness/processGroup';
import { packageExtension } from './harness/vsix';
import {
  notificationButton,
  openViewContainer,
  openWorkspace,
  reloadWindow,
  runCommand,
  statusBarText,
  treeRows,
  waitForNotification,
} from './harness/workbench';
import { smoke, writeSmokeExtension } from './fixtures/smokeExtension';

// Proves the e2e machinery on a throwaway extension: a packaged VSIX installed into a real code-server,
// driven from the command palette in Chromium, read back from the DOM and from disk, and everything stopped.
describe('e2e harness: code-server and Chromium drive a real VS Code', function () {
  this.timeout(ceiling(300_000));

  const timings: Record<string, number> = {};
  let tmp = '';
  let workspace = '';
  let vsix = '';
  let server: CodeServer | undefined;
  let ui: E2eBrowser | undefined;

  before(async function () {
    tmp = mkdtempSync(join(tmpdir(), 'greenloop-e2e-smoke-'));
    workspace = join(tmp, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'README.md'), '# a workspace\n');

    let t = Date.now();
    vsix = await packageExtension(writeSmokeExtension(join(tmp, 'extension')), join(tmp, 'greenloop-smoke.vsix'));
    timings['package vsix'] = Date.now() - t;

    t = Date.now();
    server = await startCodeServer({ workspace, vsix });
    timings['code-server install+start'] = Date.now() - t;

    t = Date.now();
    ui = await launchBrowser();
    await openWorkspace(ui.page, server.url, workspace);
    timings['browser + workbench ready'] = Date.now() - t;
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    if (ui) await screenshot(ui.page, `failed-${this.currentTest.title}`).catch(() => undefined);
    if (server) console.error(`code-server log:\n${readLog(server).slice(-3000)}\n${extensionHostLog(server).slice(-3000)}`);
  });

  after(async function () {
    await ui?.close();
    await server?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    console.log(`      timings: ${Object.entries(timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`).join(', ')}`);
  });

  it('runs a command from the palette: the notification shows and the extension wrote into the opened folder', async function () {
    const page = ui!.page;
    const t = Date.now();
    await runCommand(page, smoke.commandTitle);
    const toast = await waitForNotification(page, smoke.message);
    timings['first command'] = Date.now() - t;

    assert.ok(await notificationButton(toast, 'Open log').isVisible(), 'the notification offers its "Open log" button');
    assert.equal(readFileSync(join(workspace, 'smoke-was-here.txt'), 'utf8'), 'run 1\n');
    await screenshot(page, 'smoke-notification');
  });

  it('reads the status bar item and the tree view the way a person sees them', async function () {
    const page = ui!.page;
    await eventually('the status item to show the finished run', () => statusBarText(page, smoke.statusItemId), (text) => text === 'Smoke 2/8 green');

    await openViewContainer(page, smoke.containerTitle);
    const rows = await eventually('the run with its iterations in the tree', () => treeRows(page, smoke.viewName), (r) => r.length === 3);
    assert.deepEqual(rows, [
      { label: 'Run 1', description: 'green', level: 1, expanded: true },
      { label: 'iteration 1', description: 'progress', level: 2, expanded: undefined },
      { label: 'iteration 2', description: 'green', level: 2, expanded: undefined },
    ]);
    await screenshot(page, 'smoke-tree');
  });

  it('reloads the window: the workbench comes back with the extension running again', async function () {
    const page = ui!.page;
    await reloadWindow(page);
    await runCommand(page, smoke.commandTitle);
    await waitForNotification(page, smoke.message);
    assert.equal(readFileSync(join(workspace, 'smoke-was-here.txt'), 'utf8').trim().startsWith('run'), true);
  });

  it('stop() ends code-server and every process it started', async function () {
    const running = server!;
    const tree = running.processTree();
    // Wrapper, server and at least one extension host: stopping only the first would orphan the others.
    assert.ok(tree.length >= 3, `code-server runs as a tree before stop(), saw ${JSON.stringify(tree)}`);
    await running.stop();
    server = undefined;
    assert.deepEqual(stillRunning(tree), [], 'no process of the stopped server is left');
    assert.equal(existsSync(running.userDataDir), false, 'its temp folder is gone');
  });
});

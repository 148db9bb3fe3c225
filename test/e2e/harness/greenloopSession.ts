import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { launchBrowser, screenshot } from './browser';
import type { E2eBrowser } from './browser';
import { extensionHostLog, greenloopLog, readLog, startCodeServer } from './codeServer';
import type { CodeServer, StartOptions } from './codeServer';
import { greenloopVsix } from './greenloopVsix';
import { openWorkspace } from './workbench';
import { WorkspaceFarm } from './workspaces';

/** Names a person reads in the workbench; the manifest (package.json contributes) is their source. */
export const ui = {
  container: 'Greenloop',
  historyView: 'Loop history',
  fix: 'Greenloop: Fix until green',
  stop: 'Greenloop: Stop',
  rollbackBaseline: 'Greenloop: Roll back to baseline',
  openLastEscalation: 'Greenloop: Open last escalation',
  /** "<publisher>.<name>.<id given to createStatusBarItem>", the id VS Code gives the item's DOM node. */
  statusItemId: 'greenloop.greenloop.greenloop.status',
} as const;

/**
 * One spec file's world: the scripted model on loopback, one code-server with the packaged extension and user
 * settings pointing at that model, one Chromium page, and a farm of temp workspaces (one per scenario).
 */
export interface GreenloopSession {
  model: FakeOpenAIServer;
  server: CodeServer;
  browser: E2eBrowser;
  farm: WorkspaceFarm;
  timings: Record<string, number>;
  /** Opens `folder` in the window (a full reload into that folder) and waits for the workbench. */
  open(folder: string): Promise<void>;
  /** All text the model received in request `i` (system + user messages). */
  prompt(i: number): string;
  /** On a failed test: a screenshot and the server and extension host logs, for the person reading CI output. */
  reportFailure(title: string): Promise<void>;
  /**
   * After each test (an afterEach hook): the failure report when it failed, and the scripted answers it did not use
   * dropped, so they cannot answer the next test's run (issue 38: a scenario that timed out left answers behind, and
   * the next two runs escalated on them).
   */
  afterTest(test: Mocha.Test | undefined): Promise<void>;
  stop(): Promise<void>;
}

export interface SessionOptions {
  trust?: StartOptions['trust'];
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and everything it starts; may use the farm's root. */
  env?: (farmRoot: string) => Record<string, string>;
  /** Test-only extensions (packaged .vsix files) installed beside Greenloop. */
  extraVsix?: string[];
}

export async function startGreenloopSession(options: SessionOptions = {}): Promise<GreenloopSession> {
  const timings: Record<string, number> = {};
  const farm = new WorkspaceFarm();
  let model: FakeOpenAIServer | undefined;
  let server: CodeServer | undefined;
  let browser: E2eBrowser | undefined;
  try {
    let t = Date.now();
    const vsix = await greenloopVsix();
    timings['package vsix'] = Date.now() - t;
    model = await startFakeOpenAIServer([]);
    t = Date.now();
    server = await startCodeServer({
      workspace: farm.root,
      vsix,
      extraVsix: options.extraVsix,
      trust: options.trust,
      env: options.env?.(farm.root),
      settings: {
        'greenloop.model.provider': 'openai-compatible',
        'greenloop.model.baseUrl': model.url,
        'greenloop.model.name': 'scripted',
        'greenloop.tsc': 'off',
        ...options.settings,
      },
    });
    timings['code-server install+start'] = Date.now() - t;
    t = Date.now();
    browser = await launchBrowser();
    timings['browser'] = Date.now() - t;
  } catch (err) {
    await browser?.close();
    await server?.stop();
    await model?.close();
    farm.dispose();
    throw err;
  }
  const session: GreenloopSession = {
    model,
    server,
    browser,
    farm,
    timings,
    open: (folder) => openWorkspace(browser!.page, server!.url, folder),
    prompt: (i) => {
      const req = model!.requests[i];
      if (!req) throw new Error(`The model received ${model!.requests.length} requests, not ${i + 1}.`);
      return (req.body?.messages ?? []).map((m: { content: string }) => m.content).join('\n');
    },
    async reportFailure(title) {
      await screenshot(browser!.page, `failed-${title}`).catch(() => undefined);
      console.error(`code-server log:\n${readLog(server!).slice(-3000)}\n${extensionHostLog(server!).slice(-6000)}`);
      // What the runs of the failed test did and why each stopped, in Greenloop's own words.
      console.error(`Greenloop log:\n${greenloopLog(server!).slice(-6000)}`);
    },
    async afterTest(test) {
      if (test?.state === 'failed') await session.reportFailure(test.title);
      const left = model!.clear();
      if (left > 0 && test?.state !== 'failed') console.log(`      (${left} scripted answer${left === 1 ? '' : 's'} this test did not use, dropped)`);
    },
    async stop() {
      await browser!.close();
      await server!.stop();
      await model!.close();
      farm.dispose();
    },
  };
  return session;
}

/** Prints a spec file's timings in one line, as the closing note of each spec. */
export function formatTimings(timings: Record<string, number>): string {
  return Object.entries(timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`).join(', ');
}

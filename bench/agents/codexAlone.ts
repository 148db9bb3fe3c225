// The real OpenAI Codex CLI alone, driven by a scripted Responses-API model scenario, on a fresh copy of a fixture:
// claudeAlone.ts's counterpart for the third protocol. A stuck scenario never ends by itself, so the run is
// stopped (its whole process tree) at a request cap (or when it hangs: see aloneStop.ts), as a person would press Ctrl-C.
import * as path from 'node:path';
import { killTree } from '../../src/base/process/killTree';
import { AloneStopper, type AloneStop } from './aloneStop';
import { CALC3_FIXTURE } from '../../test/support/agentScenarios';
import type { Scenario } from '../../test/support/agentSteps';
import { installCodex, makeCodexHome, spawnCodex } from '../../test/support/codexAgent';
import { countFailingTests, makeFixtureWorkspace } from '../../test/support/qwenAgent';
import { startScriptedResponsesModel } from '../../test/support/scriptedResponsesModel';
import type { ResponsesModelRequest } from '../../test/support/scriptedResponsesModel';

const ROOT = path.resolve(__dirname, '../..');

export interface CodexAloneOptions {
  /** codex's bin; default: installed (or found) by scripts/agents/install-codex.sh. */
  codexBin?: string;
  /** Fixture folder copied for the run; default test/fixtures/agents/calc3. */
  fixture?: string;
  prompt?: string;
  /** Codex flags after `exec`; default CODEX_DEFAULT_ARGS (no sandbox, no git check, no session file). */
  args?: string[];
  /** Model requests (main and side) after which codex is stopped; default 60. */
  maxRequests?: number;
  /** Stopped when codex sent no model request for this long (it hangs); default 180 s. Never a limit on the run. */
  idleMs?: number;
  /** HTTP statuses the model answers the first main requests with (e.g. [500]), to watch codex retry. */
  failFirst?: number[];
  /** Keep the workspace and HOME for a look afterwards (their paths are in the result). */
  keep?: boolean;
  log?: (line: string) => void;
  /** Told codex's pid once it is started (e.g. to check afterwards that nothing of it survived). */
  onSpawn?: (pid: number) => void;
}

export interface CodexAloneResult {
  scenario: string;
  /** codex's exit code; null when it was stopped (see stoppedBy) or died of a signal. */
  exitCode: number | null;
  /** Every Responses request, main and side. */
  requests: number;
  mainRequests: number;
  sideRequests: number;
  /** Requests to other paths or methods (e.g. "GET /v1/models"). */
  probes: string[];
  /** Usage reported to codex over all requests. */
  tokens: { input: number; output: number; total: number };
  /** Failing tests of the workspace after the run (-1: could not tell). */
  failingAtEnd: number;
  /** True when codex did not end by itself: it was stopped at the request cap, or because it hung. */
  timedOut: boolean;
  stoppedBy: AloneStop | null;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** The recorded requests with what the model answered. */
  log: ResponsesModelRequest[];
  /** Steps the scenario could not turn into one of codex's tool calls. */
  scenarioErrors: string[];
  workspace: string;
  home: string;
}

export async function runCodexAlone(scenario: Scenario, opts: CodexAloneOptions = {}): Promise<CodexAloneResult> {
  const bin = opts.codexBin ?? (await installCodex());
  const maxRequests = opts.maxRequests ?? 60;
  const ws = makeFixtureWorkspace(path.resolve(ROOT, opts.fixture ?? CALC3_FIXTURE));
  // codex's HOME must not be under /tmp (see makeCodexHome); the one makeFixtureWorkspace made is not used.
  const codexHome = makeCodexHome();
  const stopper = new AloneStopper(maxRequests, opts.idleMs);
  const model = await startScriptedResponsesModel({
    scenario,
    workspace: ws.workspace,
    log: opts.log,
    onRequest: (r) => {
      stopper.request(r.n);
    },
  });
  if (opts.failFirst) model.failNext(...opts.failFirst);
  const started = Date.now();
  try {
    const child = spawnCodex({ bin, workspace: ws.workspace, home: codexHome.home, modelUrl: model.url, prompt: opts.prompt, args: opts.args });
    opts.onSpawn?.(child.pid!);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let killing: Promise<void> | undefined;
    stopper.start(() => {
      killing = killTree(child.pid!, { graceMs: 500 });
    });
    const code = await exited;
    stopper.dispose();
    await killing;
    const { stoppedBy } = stopper;
    return {
      scenario: scenario.name,
      exitCode: stoppedBy ? null : code,
      requests: model.requests.length,
      mainRequests: model.mainRequests,
      sideRequests: model.sideRequests,
      probes: [...model.probes],
      tokens: { input: model.inputTokens, output: model.outputTokens, total: model.inputTokens + model.outputTokens },
      failingAtEnd: await countFailingTests(ws.workspace),
      timedOut: stoppedBy !== null,
      stoppedBy,
      durationMs: Date.now() - started,
      stdout,
      stderr,
      log: model.requests,
      scenarioErrors: [...model.errors],
      workspace: ws.workspace,
      home: codexHome.home,
    };
  } finally {
    await model.close();
    if (!opts.keep) {
      ws.remove();
      codexHome.remove();
    }
  }
}

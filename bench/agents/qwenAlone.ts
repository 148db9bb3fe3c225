// The baseline the agent benchmarks compare Greenloop against: the real qwen CLI alone, driven by a scripted model
// scenario, on a fresh copy of a fixture. A stuck scenario never ends by itself, so the run is stopped (its whole
// process tree) at a request cap (or when it hangs: see aloneStop.ts), as a person would eventually press Ctrl-C.
import * as path from 'node:path';
import { killTree } from '../../src/base/process/killTree';
import { AloneStopper, type AloneStop } from './aloneStop';
import { CALC3_FIXTURE } from '../../test/support/agentScenarios';
import type { Scenario } from '../../test/support/agentSteps';
import { countFailingTests, installQwen, makeAgentWorkspace, spawnQwen } from '../../test/support/qwenAgent';
import { startScriptedAgentModel } from '../../test/support/scriptedAgentModel';
import type { AgentModelRequest } from '../../test/support/scriptedAgentModel';

const ROOT = path.resolve(__dirname, '../..');

export interface AgentAloneOptions {
  /** qwen's bin; default: installed (or found) by scripts/agents/install-qwen.sh. */
  qwenBin?: string;
  /** Fixture folder copied for the run; default test/fixtures/agents/calc3. */
  fixture?: string;
  prompt?: string;
  /** More qwen flags, e.g. ['--bare']. */
  args?: string[];
  /** Model requests (main and side) after which qwen is stopped; default 60. */
  maxRequests?: number;
  /** Stopped when qwen sent no model request for this long (it hangs); default 180 s. Never a limit on the run. */
  idleMs?: number;
  /** Keep the workspace and HOME for a look afterwards (their paths are in the result). */
  keep?: boolean;
  log?: (line: string) => void;
  /** Told qwen's pid once it is started (e.g. to check afterwards that nothing of it survived). */
  onSpawn?: (pid: number) => void;
}

export interface AgentAloneResult {
  scenario: string;
  /** qwen's exit code; null when it was stopped (see stoppedBy) or died of a signal. */
  exitCode: number | null;
  /** Every model request, main and side. */
  requests: number;
  mainRequests: number;
  /** Usage reported to qwen over all requests. */
  tokens: { prompt: number; completion: number; total: number };
  /** Failing tests of the workspace after the run (-1: could not tell). */
  failingAtEnd: number;
  /** True when qwen did not end by itself: it was stopped at the request cap, or because it hung. */
  timedOut: boolean;
  stoppedBy: AloneStop | null;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** The recorded requests with what the model answered. */
  log: AgentModelRequest[];
  workspace: string;
  home: string;
}

export async function runAgentAlone(scenario: Scenario, opts: AgentAloneOptions = {}): Promise<AgentAloneResult> {
  const bin = opts.qwenBin ?? (await installQwen());
  const maxRequests = opts.maxRequests ?? 60;
  const ws = makeAgentWorkspace(path.resolve(ROOT, opts.fixture ?? CALC3_FIXTURE));
  const stopper = new AloneStopper(maxRequests, opts.idleMs);
  const model = await startScriptedAgentModel({
    scenario,
    workspace: ws.workspace,
    log: opts.log,
    onRequest: (r) => {
      stopper.request(r.n);
    },
  });
  const started = Date.now();
  try {
    const child = spawnQwen({ bin, workspace: ws.workspace, home: ws.home, modelUrl: model.url, prompt: opts.prompt, args: opts.args });
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
      tokens: { prompt: model.promptTokens, completion: model.completionTokens, total: model.promptTokens + model.completionTokens },
      failingAtEnd: await countFailingTests(ws.workspace),
      timedOut: stoppedBy !== null,
      stoppedBy,
      durationMs: Date.now() - started,
      stdout,
      stderr,
      log: model.requests,
      workspace: ws.workspace,
      home: ws.home,
    };
  } finally {
    await model.close();
    if (!opts.keep) ws.remove();
  }
}

// The bounded loop as `greenloop mcp`'s fix_until_green runs it: the same engine, store, history and budgets as
// `greenloop fix`, with the actor the server chose (the client's model through sampling, or the configured one).
import * as os from 'node:os';
import { LoopEngine } from '../core/loop/engine';
import { systemClock } from '../base/systemClock';
import { runSecrets } from '../base/secretEnv';
import { JsonlHistoryStore } from '../store/historyStore';
import { toHistoryRecord } from '../core/run/historyRecord';
import { RunStore } from '../store/runStore';
import { openOutsideWatch } from '../outside/outsideWatch';
import { openWorkspace } from '../session/openWorkspace';
import { defaultStateDir } from '../base/stateDir';
import { newRunId } from '../base/runId';
import { TYPE_CHECK_PROTECTED_GLOBS } from '../shared/config';
import type { Actor } from '../ports/actor';
import type { LoopEvent } from '../core/loop/events';
import type { RunState } from '../ports/runState';
import { loopConfigFromFlags } from '../flags/loopConfigFlags';
import { buildVerifier } from '../flags/verifierFlags';
import type { SessionFlagValues } from '../flags/sessionFlags';
import { UsageError } from '../flags/usageError';

export async function runFixLoop(opts: {
  values: SessionFlagValues; cwd: string; actor: Actor; signal: AbortSignal; onEvent(e: LoopEvent): void; maxIterations?: number;
}): Promise<RunState> {
  const { redactor, withheld } = runSecrets({ env: process.env });
  const flagConfig = loopConfigFromFlags(opts.values);
  if (opts.maxIterations) flagConfig.maxIterations = opts.maxIterations;
  const { verifier } = buildVerifier({ ...opts.values, cwd: opts.cwd }, flagConfig.verifyTimeoutS, withheld);
  const config = verifier.typeChecks ? { ...flagConfig, protectedGlobs: [...flagConfig.protectedGlobs, ...TYPE_CHECK_PROTECTED_GLOBS] } : flagConfig;
  const stateDir = opts.values['state-dir'] ?? defaultStateDir();
  const runId = newRunId();
  const { snapshots, journal } = await openWorkspace({ workspace: opts.cwd, stateDir, excludes: config.snapshotExcludes, runId })
    .catch((err: Error) => {
      throw new UsageError(err.message.split('\n')[0]!);
    });
  try {
    const history = JsonlHistoryStore.forWorkspace(stateDir, opts.cwd, redactor);
    const past = await history.list();
    const outside = opts.actor.editsWorkspace ? await openOutsideWatch({ workspace: opts.cwd, stateDir, home: os.homedir(), snapshots }) : undefined;
    const engine = new LoopEngine({
      cwd: opts.cwd, actor: opts.actor, verifier, snapshots, journal, outside, clock: systemClock, config, redactor, runId, pastRuns: past.records,
    });
    engine.events.on(opts.onEvent);
    const state = await engine.run(opts.signal);
    await new RunStore(stateDir, opts.cwd, redactor).save(state);
    await history.append(toHistoryRecord(state));
    return state;
  } finally {
    await opts.actor.dispose?.();
    await journal.release();
  }
}

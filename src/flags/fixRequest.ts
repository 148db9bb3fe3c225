// The one mapping from command-line flags to a fix run's request, shared by `greenloop fix` and the MCP server's
// fix_until_green: the model key, the run's secrets, the budgets, the verifier, the actor and the state folder.
import { DEFAULT_AGENT_SETTINGS } from '../shared/config';
import { defaultStateDir } from '../base/stateDir';
import { secretsFromFlags } from './secretFlags';
import type { Actor } from '../ports/actor';
import type { FixRequest } from '../session/runFix';
import { actorFromFlags, modelKeyFromFlags, type ModelKey } from './fixFlags';
import { loopConfigFromFlags, type FixFlagValues } from './loopConfigFlags';
import { buildVerifier, checkSpecs, type VerifierFlagValues } from './verifierFlags';

export type FixRequestFlags = FixFlagValues & VerifierFlagValues & { 'state-dir'?: string };

export interface FlagsRequest {
  request: FixRequest;
  testCommand: string;
  /** The model key named by --api-key-env (masked in every line, withheld from the test command). */
  model: ModelKey;
  /** What the person should know about how the agent is bounded. */
  actorWarnings: string[];
}

/**
 * Bad input is a one-sentence UsageError. `over`: what the host decides itself — the folder (an MCP client's root),
 * the actor (the client's model through sampling), the attempts, the candidates per attempt and whether they are judged in parallel (tool arguments).
 */
export function fixRequestFromFlags(values: FixRequestFlags, over: { cwd?: string; actor?: Actor; maxIterations?: number; candidates?: number; candidatesParallel?: boolean } = {}): FlagsRequest {
  const model = modelKeyFromFlags(values);
  // Once per run: what the test command and the agent do not inherit, and what nothing written or sent may contain.
  const { redactor, withheld } = secretsFromFlags(values, model);
  const config = loopConfigFromFlags(values);
  if (over.maxIterations) config.maxIterations = over.maxIterations;
  if (over.candidates !== undefined) {
    if (over.candidates > 1) config.candidates = over.candidates;
    else delete config.candidates;
  }
  if (over.candidatesParallel !== undefined) {
    if (over.candidatesParallel) config.candidatesParallel = true;
    else delete config.candidatesParallel;
  }
  const stateDir = values['state-dir'] ?? defaultStateDir();
  const { cwd, verifier, testCommand } = buildVerifier({ ...values, cwd: over.cwd ?? values.cwd }, config.verifyTimeoutS, withheld, undefined, stateDir);
  const actorWarnings: string[] = [];
  const actor = over.actor ?? actorFromFlags(values, cwd, model, withheld, actorWarnings);
  // An agent resends its whole conversation with every request: a model's token budget would not last one attempt.
  if (actor.editsWorkspace && values['max-tokens'] === undefined) config.maxTokens = DEFAULT_AGENT_SETTINGS.maxTokens;
  return {
    request: { cwd, stateDir, actor, verifier, typeChecks: verifier.typeChecks, config, redactor, checks: checkSpecs(values), withheldEnv: withheld },
    testCommand, model, actorWarnings,
  };
}

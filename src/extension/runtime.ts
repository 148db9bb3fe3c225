// The run-time half of the extension: the session that assembles a run, the verifier and its parsers, the snapshot
// store and the actors. Built as its own bundle (dist/runtime.js) and loaded on first use through loadRuntime.ts, so
// activation reads only the shell that registers commands and views.
export { openFixRun } from '../session/runFix';
export { openCheckSession } from '../session/checkSession';
export { RunNotStarted } from '../session/runNotStarted';
export { openSnapshotStore } from '../snapshot/gitSnapshotStore';
export { CommandVerifier } from '../verify/commandVerifier';
export { checkSpecFromSetting } from '../verify/checkers/checkSpec';
export { OpenAIActor } from '../actors/openaiActor';
export { CommandActor } from '../actors/commandActor';
export { agentActorOptions } from '../actors/agentActorOptions';

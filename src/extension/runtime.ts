// The run-time half of the extension: the loop engine, the verifier and its parsers, the snapshot store and the
// actors. Built as its own bundle (dist/runtime.js) and loaded on first use through loadRuntime.ts, so activation
// reads only the shell that registers commands and views.
export { LoopEngine } from '../core/loop/engine';
export { openOutsideWatch } from '../outside/outsideWatch';
export { CheckSession } from '../session/checkSession';
export { openSnapshotStore } from '../snapshot/gitSnapshotStore';
export { openWorkspace } from '../session/openWorkspace';
export { CommandVerifier } from '../verify/commandVerifier';
export { checkSpecFromSetting } from '../verify/checkers/checkSpec';
export { OpenAIActor } from '../actors/openaiActor';
export { CommandActor } from '../actors/commandActor';
export { agentActorOptions } from '../actors/agentActorOptions';

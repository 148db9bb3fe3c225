// Import reach (issue 31): the files the failing tests' files reach through imports, resolved as each runtime does.
export { importReach, reachFrom } from './reach';
export type { ReachOptions } from './reach';
export type { IgnoredCheck, ReadGate } from './workspaceFiles';

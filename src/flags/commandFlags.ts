// Which flags each `greenloop` command takes, picked from the one catalog (flagCatalog.ts): parseArgs reads these
// sets, and `greenloop help COMMAND` prints them, so what parses and what help lists cannot drift apart.
import { PARSE_FLAG, pickFlags } from './flagCatalog';

/** `verify`, and the part of every other command that says where and how the tests run. */
export const VERIFIER_FLAGS = pickFlags('cwd', 'test-cmd', 'tsc', 'timeout-s', 'junit', 'check', 'allow-suppressions', 'pass-env');

/** `hook claude-stop` (and `mcp`): a check session's budgets and guards, with `fix`'s defaults. */
export const SESSION_FLAGS = {
  ...VERIFIER_FLAGS,
  ...pickFlags('max-iterations', 'max-minutes', 'patience', 'verify-timeout-s', 'allow-test-edits', 'protect', 'flaky-reruns', 'verify-scope', 'state-dir'),
};

const MODEL_FLAGS = pickFlags('actor', 'base-url', 'model', 'api-key-env', 'agent', 'actor-cmd', 'agent-upstream');

/** `mcp`: a session, and the model fix_until_green uses when the client cannot sample. */
export const MCP_FLAGS = { ...SESSION_FLAGS, ...MODEL_FLAGS, ...pickFlags('autofix', 'context-tokens', 'candidates', 'candidates-parallel') };

export const FIX_FLAGS = {
  ...VERIFIER_FLAGS,
  ...MODEL_FLAGS,
  ...pickFlags('no-stream', 'request-timeout-s', 'agent-requests-per-attempt', 'agent-timeout-s'),
  ...pickFlags('max-iterations', 'max-tokens', 'max-minutes', 'patience', 'verify-timeout-s', 'on-give-up', 'allow-test-edits', 'protect'),
  ...pickFlags('flaky-reruns', 'verify-scope', 'autofix', 'context-tokens', 'candidates', 'candidates-parallel', 'cross-run-limit', 'ignore-history', 'max-answer-bytes', 'focus'),
  ...pickFlags('state-dir', 'report', 'json', 'format', 'resume', 'hint', 'extra-iterations', 'extra-tokens', 'extra-minutes'),
};

/** `verify` itself: its answer is always JSON, and `--json` (as `fix` takes it) is accepted as saying so. */
export const VERIFY_FLAGS = { ...VERIFIER_FLAGS, ...pickFlags('json') };

export const PARSE_FLAGS = PARSE_FLAG;

/** Every command's flags, for help. */
export const COMMAND_FLAGS = {
  parse: PARSE_FLAGS,
  verify: VERIFY_FLAGS,
  fix: FIX_FLAGS,
  hook: SESSION_FLAGS,
  mcp: MCP_FLAGS,
} as const;

export type CommandName = keyof typeof COMMAND_FLAGS;

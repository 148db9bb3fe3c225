// Every flag of the `greenloop` commands, once: what node:util's parseArgs needs (type, multiple) beside what help
// prints (the value's name, the default, the VS Code setting it mirrors, one sentence). The commands' option sets
// (commandFlags.ts) pick from here, so a flag cannot parse without being described.
// Defaults are read from where the code takes them (shared/config.ts, session/loopDefaults.ts; the formats from the
// runners' registry), never retyped.
import { DEFAULT_AGENT_SETTINGS } from '../shared/config';
import { DEFAULT_LOOP_CONFIG } from '../session/loopDefaults';
import { DEFAULT_PROTECTED_GLOBS } from '../session/protectedGlobs';
import { formatNames } from '../runners/registry';

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: true;
  /** The value's name in help (`--cwd DIR`); none for a boolean. */
  value?: string;
  /** The default the code applies, compared with the setting's default by a test where both exist. */
  defaultValue?: string | number | boolean;
  /** The default in words, where a value alone would mislead. */
  defaultText?: string;
  /** The VS Code setting (or command) this flag mirrors. */
  setting?: string;
  help: string;
}

/** Keeps each entry's literal `type` and `multiple`: parseArgs types the parsed values from them. */
const flag = <const T extends FlagSpec>(spec: T): T => spec;

/** The flags whose meaning is the same in every command that takes them. */
export const FLAG = {
  cwd: flag({ type: 'string', value: 'DIR', defaultText: 'the current folder', help: 'The folder whose tests are run and fixed.' }),
  'test-cmd': flag({ type: 'string', value: 'CMD', defaultText: 'the `test` script of DIR/package.json', setting: 'greenloop.testCommand', help: 'Shell command that runs the tests.' }),
  tsc: flag({ type: 'string', value: 'auto|on|off', defaultValue: 'auto', setting: 'greenloop.tsc', help: 'Whether green also needs `tsc --noEmit` to report no error (auto: when the folder has a tsconfig.json and a local TypeScript).' }),
  'timeout-s': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.verifyTimeoutS, setting: 'greenloop.verifyTimeoutSeconds', help: 'Seconds the test command (and tsc) may run before it is stopped.' }),
  junit: flag({ type: 'string', value: 'GLOB', defaultText: 'none: the test output is read', help: 'JUnit XML files the test command writes, read instead of its output.' }),
  check: flag({ type: 'string', multiple: true, value: 'CMD[:FORMAT][:fix=FIXCMD]', defaultText: 'none', setting: 'greenloop.checks', help: 'A checker beside tsc (eslint, mypy, clippy, go vet, gofmt -l, …) whose errors must be gone for green; :fix= names its fixer.' }),
  'allow-suppressions': flag({ type: 'boolean', defaultValue: false, setting: 'greenloop.allowSuppressions', help: 'Let edits add suppression directives (`@ts-ignore`, `eslint-disable`, `# type: ignore`, …); refused otherwise.' }),
  'pass-env': flag({ type: 'string', multiple: true, value: 'NAME', defaultText: 'none', help: 'In a GitHub Actions job, a platform credential (GITHUB_TOKEN, …) the test command and agents may still see.' }),

  actor: flag({ type: 'string', value: 'openai|command', defaultText: 'openai with --base-url, command with --agent or --actor-cmd', setting: 'greenloop.model.provider', help: 'Where edits come from: an OpenAI-compatible endpoint, or an agent CLI that edits the folder itself.' }),
  'base-url': flag({ type: 'string', value: 'URL', defaultText: 'none', setting: 'greenloop.model.baseUrl', help: 'Base URL of the OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1.' }),
  model: flag({ type: 'string', value: 'NAME', defaultText: "none (an agent: the agent's own)", setting: 'greenloop.model.name', help: 'The model name sent to the endpoint, or the model an agent is told to use.' }),
  'api-key-env': flag({ type: 'string', value: 'VAR', defaultText: 'no key', setting: 'Greenloop: Set API key (OpenAI-compatible)', help: 'The environment variable holding the model key (the key itself is never a flag).' }),
  'no-stream': flag({ type: 'boolean', defaultValue: false, help: 'Ask the endpoint for whole answers instead of streamed ones.' }),
  'request-timeout-s': flag({ type: 'string', value: 'N', defaultValue: 120, setting: 'greenloop.model.requestTimeoutSeconds', help: 'Longest the endpoint may go without progress before the request is abandoned and retried.' }),
  agent: flag({ type: 'string', value: 'qwen|codex|opencode|aider|claude', defaultText: 'none', setting: 'greenloop.agent.preset', help: "An agent CLI, run with its headless flags through Greenloop's model gateway." }),
  'actor-cmd': flag({ type: 'string', value: 'CMD', defaultText: "the preset's command", setting: 'greenloop.agent.command', help: 'Any agent command: the prompt on stdin and in $GREENLOOP_PROMPT_FILE; it edits the folder itself.' }),
  'agent-upstream': flag({ type: 'string', value: 'URL', defaultText: "the agent's OPENAI_BASE_URL", setting: 'greenloop.agent.upstream', help: "The agent's real model: the gateway forwards its requests there." }),
  'agent-requests-per-attempt': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_AGENT_SETTINGS.requestsPerAttempt, setting: 'greenloop.agent.requestsPerAttempt', help: 'Model requests one agent attempt may make; the next is answered "stop now".' }),
  'agent-timeout-s': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_AGENT_SETTINGS.timeoutS, setting: 'greenloop.agent.timeoutSeconds', help: "The agent's time per attempt; then it is stopped and its changes undone." }),

  'max-iterations': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.maxIterations, setting: 'greenloop.maxIterations', help: 'Most attempts (an edit and a test run) in one run.' }),
  'max-tokens': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.maxTokens, defaultText: `${DEFAULT_LOOP_CONFIG.maxTokens} (${DEFAULT_AGENT_SETTINGS.maxTokens} with an agent)`, setting: 'greenloop.maxTokens', help: 'Most prompt + completion tokens one run may spend; 0: no token budget.' }),
  'max-minutes': flag({ type: 'string', value: 'M', defaultValue: DEFAULT_LOOP_CONFIG.maxMinutes, setting: 'greenloop.maxMinutes', help: 'Wall-clock minutes one run may take; 0: no time budget.' }),
  patience: flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.patience, setting: 'greenloop.patience', help: 'Attempts in a row without progress before the run stops with stagnation.' }),
  'verify-timeout-s': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.verifyTimeoutS, setting: 'greenloop.verifyTimeoutSeconds', help: 'Seconds the test command (and tsc) may run before the attempt counts as a verifier error.' }),
  'on-give-up': flag({ type: 'string', value: 'keep-best|restore-baseline|keep-last', defaultValue: DEFAULT_LOOP_CONFIG.onGiveUp, setting: 'greenloop.onGiveUp', help: 'What the folder is left at when a run stops without going green.' }),
  'allow-test-edits': flag({ type: 'boolean', defaultValue: DEFAULT_LOOP_CONFIG.allowTestEdits, setting: 'greenloop.allowTestEdits', help: 'Let edits change protected files (tests and what decides how they run).' }),
  protect: flag({ type: 'string', multiple: true, value: 'GLOB', defaultText: `${DEFAULT_PROTECTED_GLOBS.length} globs of test files and their configuration`, setting: 'greenloop.protectedGlobs', help: 'One more glob of files edits may not change (added to the defaults).' }),
  'flaky-reruns': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.flakyReruns, setting: 'greenloop.flakyReruns', help: 'Re-runs of a newly failing test on the same files before the edit is blamed.' }),
  'context-tokens': flag({ type: 'string', value: 'N', defaultValue: 6000, setting: 'greenloop.contextTokens', help: 'Tokens of code each prompt shows: the functions around the failures, their files\' outlines and a map of the files the tests reach.' }),
  candidates: flag({ type: 'string', value: 'N', defaultValue: 1, setting: 'greenloop.candidates', help: 'Answers the model gives per attempt (its `n`, or N requests at once); each is tried from the same state, the best one kept.' }),
  'candidates-parallel': flag({ type: 'boolean', defaultValue: false, setting: 'greenloop.candidatesParallel', help: 'Judge the candidates at the same time, each in its own copy of the workspace (its failing tests run there); only the one chosen is applied for the whole suite.' }),
  autofix: flag({ type: 'string', value: 'auto|off', defaultValue: 'auto', setting: 'greenloop.autofix', help: "Run the project's own fixers of failing checks (eslint --fix, biome check --write, …) as attempt 0, before any model call." }),
  'verify-scope': flag({ type: 'string', value: 'failing-first|full', defaultValue: 'failing-first', setting: 'greenloop.verify.scope', help: 'Run the failing tests first and the whole suite when one passes, or the whole suite every attempt.' }),
  'cross-run-limit': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.crossRunLimit, setting: 'greenloop.crossRunLimit', help: 'Runs in a row escalated the same way before a new one stops before asking the model; 0: off.' }),
  'ignore-history': flag({ type: 'boolean', defaultValue: false, help: 'Run even when the cross-run limit says the same run escalated too often.' }),
  'max-answer-bytes': flag({ type: 'string', value: 'N', defaultValue: DEFAULT_LOOP_CONFIG.maxAnswerBytes, setting: 'greenloop.maxAnswerBytes', help: 'Largest model answer read, in bytes; a larger one is an invalid proposal.' }),
  focus: flag({ type: 'string', multiple: true, value: 'TEST_ID', defaultText: 'every failing test', setting: 'Testing view: Fix until green (selected failing tests)', help: 'Only these failing tests must pass; the rest of the suite must not regress.' }),

  'state-dir': flag({ type: 'string', value: 'DIR', defaultText: "the user's state folder (~/.local/state/greenloop on Linux)", help: 'Where runs, snapshots and history are kept (never inside the folder being fixed).' }),
  report: flag({ type: 'string', value: 'FILE', defaultText: 'none', help: 'Also write the report JSON to FILE.' }),
  json: flag({ type: 'boolean', defaultValue: false, help: 'Print the report JSON on stdout (verify always prints its witness as JSON; --json is accepted there too).' }),
  format: flag({ type: 'string', value: 'text|github', defaultText: 'github in a GitHub Actions job, else text', help: 'github: also the job summary, annotations and step outputs.' }),
  resume: flag({ type: 'string', value: 'RUN_ID|last', defaultText: 'a new run', setting: 'escalation panel: Retry with hint', help: 'Go on from a run that stopped, with --hint and an explicit extra budget.' }),
  hint: flag({ type: 'string', value: 'TEXT', defaultText: 'none', help: 'What the model should know on a resumed run (needed with --resume).' }),
  'extra-iterations': flag({ type: 'string', value: 'N', defaultValue: 3, help: 'More attempts a resumed run may make, counted from where it stopped.' }),
  'extra-tokens': flag({ type: 'string', value: 'N', defaultValue: 0, help: 'More tokens a resumed run may spend.' }),
  'extra-minutes': flag({ type: 'string', value: 'M', defaultValue: 0, help: 'More minutes a resumed run may take.' }),
} as const;

export type FlagName = keyof typeof FLAG;

/** `greenloop parse` reads a runner's or checker's output: its --format names a parser, not a report format. */
export const PARSE_FLAG = {
  format: flag({ type: 'string', value: 'F', defaultValue: 'auto', help: `The runner (${['auto', ...formatNames()].join(', ')}) or checker (eslint, biome, oxlint, pyright, mypy, pylint, govet, gofmt, cargo-json, gcc) that wrote the output.` }),
  warnings: flag({ type: 'boolean', defaultValue: false, help: "Count a checker's warnings too, not only its errors." }),
} as const;

/** The named entries of the catalog, each keeping its literal type for parseArgs. */
export function pickFlags<const K extends FlagName>(...names: K[]): Pick<typeof FLAG, K> {
  return Object.fromEntries(names.map((n) => [n, FLAG[n]])) as Pick<typeof FLAG, K>;
}

// `greenloop` entry point: dispatches a subcommand and maps failures to the contract's exit codes.
// Each command is loaded only when it runs: `--help` needs none of them, and a Claude Code Stop hook — run once per
// stop — must not pay for the MCP SDK, the model gateway or the actors on every start.
import { EXIT, isUsageError, UsageError } from '../flags/usageError';
import { say } from './say';
import { keepHeapNearLive } from './heapPolicy';

const PARSE_USAGE = `  greenloop parse [--format F] [--warnings] [FILE|-]
      Reads one test runner's output and prints the failing tests as JSON (F: auto, mocha, jest, vitest, node, tap,
      pytest, go, cargo, junit, tsc), or one checker's and prints its diagnostics with their source (F: eslint, biome,
      oxlint, pyright, mypy, pylint, govet, cargo-json, gcc; --warnings counts warnings too).`;
const VERIFY_USAGE = `  greenloop verify [--cwd DIR] [--test-cmd CMD] [--tsc auto|on|off] [--timeout-s N] [--junit GLOB] [--check CMD[:FORMAT]]... [--pass-env NAME]...
      Runs the tests (tsc and the checks) once and prints the witness as JSON; exit 0 green, 1 not green, 2 setup error
      (then {"green": false, "outcome": "error", "reasonText": …}).`;
const FIX_USAGE = `  greenloop fix [--cwd DIR] [--test-cmd CMD] [--tsc auto|on|off] [--junit GLOB] [--check CMD[:FORMAT]]... [--allow-suppressions] [--pass-env NAME]...
      --actor openai --base-url URL --model NAME [--api-key-env VAR] [--no-stream] [--request-timeout-s N]
    | --agent qwen|codex|opencode|aider|claude [--model NAME]   (an agent CLI, run through Greenloop's model gateway)
    | --actor command --actor-cmd CMD   (any agent CLI: the prompt on stdin and in $GREENLOOP_PROMPT_FILE)
      with an agent: [--agent-upstream URL] (its real model; default: its OPENAI_BASE_URL) [--api-key-env VAR]
      [--agent-requests-per-attempt N] (default 12) [--agent-timeout-s N] (default 600); --max-tokens defaults to 2,000,000
      [--max-iterations N] [--max-tokens N] [--max-minutes M] [--patience N] [--verify-timeout-s N]
      [--on-give-up keep-best|restore-baseline|keep-last] [--allow-test-edits] [--protect GLOB]...
      [--flaky-reruns N] [--verify-scope failing-first|full] [--cross-run-limit N] [--ignore-history] [--max-answer-bytes N]
      [--context-tokens N]   (the code the model is shown: functions around the failures, default 6000 tokens)
      [--focus TEST_ID]...   (only these failing tests must pass; the rest of the suite must not regress)
      [--state-dir DIR] [--report FILE] [--json] [--format text|github]   (github: on by itself when GITHUB_ACTIONS=true)
      (in a GitHub Actions job no child sees GITHUB_TOKEN, GH_TOKEN or ACTIONS_* tokens but those --pass-env names)
      [--resume RUN_ID|last --hint TEXT [--extra-iterations N] [--extra-tokens N] [--extra-minutes M]]
      Fixes until green, bounded by code; exit 0 green, 1 not green, 2 setup error, 3 internal error.`;
const SESSION_OPTIONS = `[--cwd DIR] [--test-cmd CMD] [--tsc auto|on|off] [--junit GLOB] [--check CMD[:FORMAT]]... [--max-iterations N] [--max-minutes M]
      [--patience N] [--verify-timeout-s N] [--allow-test-edits] [--protect GLOB]... [--flaky-reruns N] [--verify-scope failing-first|full] [--state-dir DIR]
      [--pass-env NAME]...`;
const HOOK_USAGE = `  greenloop hook claude-stop ${SESSION_OPTIONS}
      A Claude Code Stop hook (event JSON on stdin): blocks the stop while tests fail and the bounds allow another
      attempt, lets the agent stop when green or when stagnation, a cycle or a budget trips. Errors exit 1
      (stdout: {"outcome": "error", "reasonText": …, "systemMessage": …}).`;
const MCP_USAGE = `  greenloop mcp ${SESSION_OPTIONS}
      [--actor openai --base-url URL --model NAME | --agent NAME ...]   (fix_until_green's model when the client cannot sample)
      A Model Context Protocol server on stdio: tools verify, rollback, status, fix_until_green (one check session per server).`;
const USAGE = `Usage:\n${PARSE_USAGE}\n${VERIFY_USAGE}\n${FIX_USAGE}\n${HOOK_USAGE}\n${MCP_USAGE}`;
const USAGES: Record<string, string> = { parse: PARSE_USAGE, verify: VERIFY_USAGE, fix: FIX_USAGE, hook: HOOK_USAGE, mcp: MCP_USAGE };

type Command = (argv: string[]) => Promise<number>;
const COMMANDS: Record<string, () => Promise<Command>> = {
  parse: async () => (await import('./parseCommand')).parseCommand,
  verify: async () => (await import('./verifyCommand')).verifyCommand,
  fix: async () => (await import('./fixCommand')).fixCommand,
  hook: async () => (await import('../hook/hookCommand')).hookCommand,
  mcp: async () => (await import('../mcp/mcpCommand')).mcpCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) throw new UsageError(`Unknown command "${name}"; use ${Object.keys(COMMANDS).join(', ')}.`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`Usage:\n${USAGES[name]}\n`);
    return EXIT.ok;
  }
  if (name !== 'parse') keepHeapNearLive();
  return (await load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // A finished run has said everything. What it abandoned at the deadline (a TCP connect or a DNS lookup a fetch
    // let go of, which Node still waits out for its own timeout) must not keep the process alive after its report.
    if (process.argv[2] === 'fix') exitWhenFlushed(code);
  },
  async (err: unknown) => {
    const usage = isUsageError(err);
    // An error can quote test output or an answer: masked like every other line Greenloop prints.
    const { runSecrets } = await import('../base/secretEnv');
    const { redactor } = runSecrets({ env: process.env, keyVariable: keyVariableOf(process.argv) });
    // Node's parseArgs explains in three lines; a person needs the first.
    say(`greenloop: ${redactor.text((err as Error).message.split('\n')[0])}`);
    if (!usage && process.env.GREENLOOP_DEBUG) redactor.text(String((err as Error).stack)).split('\n').forEach(say);
    // A Claude Code hook that exits 2 blocks the agent with its error as the instruction: a hook's errors exit 1.
    const hook = process.argv[2] === 'hook';
    process.exitCode = hook ? EXIT.notGreen : usage ? EXIT.usage : EXIT.internal;
    if (process.argv[2] === 'fix') exitWhenFlushed(process.exitCode);
  },
);

/** Exits once what was written to stdout and stderr is out (a pipe may still hold it). */
function exitWhenFlushed(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/** The variable --api-key-env names, read from the raw arguments (they may not have parsed). */
function keyVariableOf(argv: string[]): string | undefined {
  const i = argv.indexOf('--api-key-env');
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith('--api-key-env='))?.slice('--api-key-env='.length);
}

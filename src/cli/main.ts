// `greenloop` entry point: dispatches a subcommand and maps failures to the contract's exit codes.
// Each command is loaded only when it runs: `--help` needs none of them, and a Claude Code Stop hook — run once per
// stop — must not pay for the MCP SDK, the model gateway or the actors on every start.
import { EXIT, isUsageError, UsageError } from '../flags/usageError';
import { say } from './say';
import { keepHeapNearLive } from './heapPolicy';
import { commandHelp, COMMAND_NAMES, isCommandName, overview } from './usage';
import { VERSION } from '../flags/version';

type Command = (argv: string[]) => Promise<number>;
const COMMANDS: Record<string, () => Promise<Command>> = {
  parse: async () => (await import('./parseCommand')).parseCommand,
  verify: async () => (await import('./verifyCommand')).verifyCommand,
  fix: async () => (await import('./fixCommand')).fixCommand,
  hook: async () => (await import('../hook/hookCommand')).hookCommand,
  mcp: async () => (await import('../mcp/mcpCommand')).mcpCommand,
};

// A reader that went away (`greenloop fix … 2>&1 | head`, a parent killed before us) must not end a run mid-edit or
// mid-kill: the lines are lost, the run goes on to restore, kill what it started and save.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (!name || name === '--help' || name === '-h') {
    process.stdout.write(`${overview(VERSION)}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === 'help') return help(rest[0]);
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) throw new UsageError(`Unknown command "${name}"; use ${COMMAND_NAMES.join(', ')} (greenloop help lists them).`);
  if (rest.includes('--help') || rest.includes('-h')) return help(name);
  if (name !== 'parse') keepHeapNearLive();
  return (await load())(rest);
}

/** `greenloop help [COMMAND]`: the overview, or one command's flags with their defaults and settings. */
function help(name: string | undefined): number {
  if (name === undefined) {
    process.stdout.write(`${overview(VERSION)}\n`);
    return EXIT.ok;
  }
  if (!isCommandName(name)) throw new UsageError(`No command "${name}" to explain; use ${COMMAND_NAMES.join(', ')}.`);
  process.stdout.write(`${commandHelp(name)}\n`);
  return EXIT.ok;
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

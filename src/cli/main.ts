// `greenloop` entry point: dispatches a subcommand and maps failures to the contract's exit codes.
import { parseCommand } from './parseCommand';
import { verifyCommand } from './verifyCommand';
import { fixCommand } from './fixCommand';
import { EXIT, UsageError } from './usageError';

const USAGE = `Usage:
  greenloop parse [--format F] [FILE|-]
  greenloop verify [--cwd DIR] [--test-cmd CMD] [--tsc auto|on|off] [--timeout-s N] [--junit GLOB]
  greenloop fix [--cwd DIR] [--test-cmd CMD] [--tsc auto|on|off] [--junit GLOB]
      --actor openai --base-url URL --model NAME [--api-key-env VAR] [--no-stream] [--request-timeout-s N]
    | --actor command --actor-cmd CMD
      [--max-iterations N] [--max-tokens N] [--max-minutes M] [--patience N] [--verify-timeout-s N]
      [--on-give-up keep-best|restore-baseline|keep-last] [--allow-test-edits] [--protect GLOB]...
      [--flaky-reruns N] [--cross-run-limit N] [--ignore-history]
      [--state-dir DIR] [--report FILE] [--json]
      [--resume RUN_ID|last --hint TEXT [--extra-iterations N] [--extra-tokens N] [--extra-minutes M]]`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = { parse: parseCommand, verify: verifyCommand, fix: fixCommand };

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${name}"; use parse, verify or fix.`);
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // Node's parseArgs explains in three lines; a person needs the first.
    process.stderr.write(`greenloop: ${(err as Error).message.split('\n')[0]}\n`);
    if (!usage && process.env.GREENLOOP_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    process.exitCode = usage ? EXIT.usage : EXIT.internal;
  },
);

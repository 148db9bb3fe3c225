// What `greenloop help`, `greenloop help COMMAND` and `COMMAND --help` print: each command's synopsis and what it
// does, then every flag it takes (from flags/commandFlags.ts, the sets parseArgs reads) with its default and the
// VS Code setting it mirrors.
import { COMMAND_FLAGS, type CommandName } from '../flags/commandFlags';
import type { FlagSpec } from '../flags/flagCatalog';

const SYNOPSIS: Record<CommandName, string> = {
  parse: `greenloop parse [--format F] [--warnings] [FILE|-]
    Reads one test runner's output and prints the failing tests as JSON, or one checker's and prints its
    diagnostics with their source. Exit 0 when read, 2 on bad usage or unreadable input.`,
  verify: `greenloop verify [--cwd DIR] [--test-cmd CMD] [--tsc auto|on|off] [--check CMD[:FORMAT]]... [FLAGS]
    Runs the tests (tsc and the checks) once and prints the witness as JSON; exit 0 green, 1 not green, 2 setup
    error (then {"green": false, "outcome": "error", "reasonText": …}).`,
  fix: `greenloop fix [--cwd DIR] [--test-cmd CMD] MODEL [FLAGS]
    MODEL: --actor openai --base-url URL --model NAME [--api-key-env VAR]
         | --agent qwen|codex|opencode|aider|claude [--model NAME]   (an agent CLI, through Greenloop's model gateway)
         | --actor command --actor-cmd CMD   (any agent CLI: the prompt on stdin and in $GREENLOOP_PROMPT_FILE)
    Fixes until green, bounded by code; exit 0 green, 1 not green, 2 setup error, 3 internal error.
    Resume a run that stopped: --resume RUN_ID|last --hint TEXT [--extra-iterations N] [--extra-tokens N] [--extra-minutes M].`,
  hook: `greenloop hook claude-stop [--cwd DIR] [--test-cmd CMD] [FLAGS]
    A Claude Code Stop hook (event JSON on stdin): blocks the stop while tests fail and the bounds allow another
    attempt, lets the agent stop when green or when stagnation, a cycle or a budget trips. Errors exit 1
    (stdout: {"outcome": "error", "reasonText": …, "systemMessage": …}).`,
  mcp: `greenloop mcp [--cwd DIR] [--test-cmd CMD] [FLAGS]
    A Model Context Protocol server on stdio: tools verify, rollback, status, fix_until_green (one check session per
    server). fix_until_green uses the client's model through sampling, else the model named by the model flags.`,
};

export const COMMAND_NAMES = Object.keys(SYNOPSIS) as CommandName[];

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(SYNOPSIS, name);
}

/** `greenloop help`: every command's synopsis, and how to see its flags. */
export function overview(version: string): string {
  return [
    `greenloop ${version}: fixes a folder until its tests pass, bounded by code, never by the model.`,
    '',
    'Usage:',
    ...COMMAND_NAMES.map((c) => `  ${SYNOPSIS[c].replace(/\n/g, '\n  ')}`),
    '',
    'greenloop help COMMAND (or COMMAND --help) lists every flag with its default and the setting it mirrors.',
    'greenloop --version prints the version.',
  ].join('\n');
}

/** `greenloop help COMMAND`: the synopsis, then each flag on its own lines. */
export function commandHelp(name: CommandName): string {
  const flags = Object.entries(COMMAND_FLAGS[name]) as Array<[string, FlagSpec]>;
  return [`Usage:\n  ${SYNOPSIS[name].replace(/\n/g, '\n  ')}`, '', 'Flags:', ...flags.map(([flag, spec]) => flagLines(flag, spec))].join('\n');
}

function flagLines(name: string, spec: FlagSpec): string {
  const head = `  --${name}${spec.value ? ` ${spec.value}` : ''}${spec.multiple ? ' (repeatable)' : ''}`;
  const facts = [`default: ${defaultOf(spec)}`, ...(spec.setting ? [`setting: ${spec.setting}`] : [])].join('; ');
  return `${head}\n      ${spec.help}\n      (${facts})`;
}

function defaultOf(spec: FlagSpec): string {
  if (spec.defaultText) return spec.defaultText;
  if (spec.type === 'boolean') return spec.defaultValue ? 'on' : 'off';
  return String(spec.defaultValue);
}

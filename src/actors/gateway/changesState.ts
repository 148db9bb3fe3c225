// Which of an agent's tool calls may change the workspace: its edit, write and patch tools (qwen's `edit` and
// `write_file`, Claude Code's `Edit`, `MultiEdit` and `Write`, Codex's `apply_patch`, Gemini's `replace`), and a shell
// command that is neither a read (`cat`, `grep`, `git diff`) nor a test run. A read repeated is the "unchanged result"
// rule's; an edit repeated is the repeated-call rule's (repeatedCall.ts). When unsure, a shell command counts as a
// change: repeating it with nothing new in the test results is no progress either way.
import { commandOf } from './agentTestRun';

/** Tool names that write files, lower-cased with `_`/`-` taken out. */
const WRITES = /edit|write|replace|patch|create|delete|remove|insert|move|rename|mkdir/;
/** …unless they write the agent's own notes, not the workspace (qwen's `todo_write`, Claude's `TodoWrite`, Codex's plan). */
const OWN_NOTES = /todo|memory|plan|stdin/;

/** Commands that only look: each step of a shell line must be one of them for the line to be a read. */
const READS = new Set([
  'cat', 'head', 'tail', 'less', 'more', 'ls', 'tree', 'find', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'wc', 'pwd', 'echo',
  'printf', 'sed', 'awk', 'nl', 'stat', 'file', 'diff', 'cmp', 'which', 'type', 'true', 'cd', 'sort', 'uniq', 'cut', 'jq',
  'od', 'xxd', 'du', 'realpath', 'dirname', 'basename', 'git',
]);
/** git's subcommands that only look. */
const GIT_READS = new Set(['status', 'diff', 'log', 'show', 'grep', 'ls-files', 'blame', 'rev-parse', 'describe']);
/** A look that writes after all: `sed -i`, `find -delete`/`-exec`, `awk -i inplace`. */
const WRITING_FLAGS = /(?:^|\s)(?:-i\S*|--in-place\S*|-delete|-exec\S*)(?:\s|$)/;
/** Output sent to a file (`> f`, `>> f`, `| tee f`); `2>&1` and `> /dev/null` write nothing. */
const TO_FILE = /(?<![0-9&])>{1,2}\s*(?!&|\/dev\/null\b)\S|\|\s*tee\b/;

/** Whether a call of this tool with these arguments (JSON text, or a custom tool's free-form input) may change files. */
export function changesState(name: string, args: string): boolean {
  const tool = name.toLowerCase().replace(/[_-]/g, '');
  if (WRITES.test(tool) && !OWN_NOTES.test(tool)) return !isViewCommand(args);
  const command = commandOf(args);
  return command !== null && !onlyReads(command);
}

/** An editor tool's look at a file (`str_replace_based_edit_tool` with `command: "view"`). */
function isViewCommand(args: string): boolean {
  try {
    return (JSON.parse(args) as { command?: unknown })?.command === 'view';
  } catch {
    return false;
  }
}

function onlyReads(command: string): boolean {
  if (TO_FILE.test(command)) return false;
  return command.split(/&&|\|\||[;|\n]/).every((part) => {
    const words = part.trim().split(/\s+/).filter((w) => !/^\w+=/.test(w));
    if (words.length === 0) return true;
    const [program, sub] = words;
    if (!READS.has(program!) || WRITING_FLAGS.test(part)) return false;
    return program !== 'git' || GIT_READS.has(sub ?? '');
  });
}

// What a scripted agent model can do, named by intent (read, edit, write, shell, say) rather than by one agent's
// tool names: each step is turned into a call of whatever tool the agent advertised in its request, with the
// argument names that tool's JSON schema uses. So the same scenario drives qwen with or without --bare (and other
// OpenAI-tools agents whose tools look alike). An agent whose only file tool is its shell (Codex CLI) reads with
// `cat`, edits with an `apply_patch` patch run in that shell (Codex applies it itself) and writes with a heredoc.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A Chat Completions or Anthropic message as agents send it (content may be a string or a list of parts/blocks). */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** An OpenAI function tool as advertised in a request's `tools` (an Anthropic tool's `input_schema` goes in `parameters`). */
export interface ToolSpec {
  type: string;
  function: { name: string; description?: string; parameters?: { properties?: Record<string, unknown>; required?: string[] } };
}

/** The next thing the model says: one tool call, or final text. */
export type AgentAction = { tool: string; args: Record<string, unknown> } | { text: string };

export interface ScenarioContext {
  /** Absolute path of the agent's workspace: tools such as qwen's want absolute `file_path`s. */
  workspace: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Assistant messages already in the conversation: 0 on the first request of an agent run. */
  turn: number;
}

export type Step = (ctx: ScenarioContext) => AgentAction;

export interface Scenario {
  readonly name: string;
  next(ctx: ScenarioContext): AgentAction;
  /** Called when a main request starts a conversation (no assistant message yet): each agent run is one. */
  onNewConversation?(): void;
}

/** Tool names tried in order for each intent; the first one the agent advertises is used (Claude Code's are capitalised). */
const TOOL_NAMES = {
  read: ['read_file', 'read', 'view', 'Read'],
  edit: ['edit', 'replace', 'edit_file', 'str_replace', 'Edit'],
  write: ['write_file', 'write', 'create_file', 'Write'],
  shell: ['run_shell_command', 'shell', 'bash', 'Bash', 'exec_command'],
} as const;

const ARG_NAMES = {
  path: ['file_path', 'absolute_path', 'path'],
  old: ['old_string', 'old_str'],
  new: ['new_string', 'new_str'],
  all: ['replace_all'],
  content: ['content', 'file_text'],
  command: ['command', 'cmd'],
} as const;

/** The scripted model cannot do what its scenario asks with the tools the agent offered. */
export class MissingToolError extends Error {}

function offeredTool(ctx: ScenarioContext, intent: keyof typeof TOOL_NAMES): ToolSpec | undefined {
  const byName = new Map(ctx.tools.map((t) => [t.function.name, t]));
  for (const name of TOOL_NAMES[intent]) {
    const tool = byName.get(name);
    if (tool) return tool;
  }
  return undefined;
}

function findTool(ctx: ScenarioContext, intent: keyof typeof TOOL_NAMES): ToolSpec {
  const tool = offeredTool(ctx, intent);
  if (tool) return tool;
  const offered = ctx.tools.map((t) => t.function.name).join(', ') || 'none';
  throw new MissingToolError(`The agent offers no ${intent} tool (it offers: ${offered}).`);
}

function argName(tool: ToolSpec, kind: keyof typeof ARG_NAMES): string {
  const props = Object.keys(tool.function.parameters?.properties ?? {});
  const name = ARG_NAMES[kind].find((n) => props.includes(n));
  if (!name) throw new MissingToolError(`The agent's ${tool.function.name} tool has no ${kind} argument (it takes: ${props.join(', ')}).`);
  return name;
}

function call(tool: ToolSpec, args: Array<[string, unknown]>): AgentAction {
  return { tool: tool.function.name, args: Object.fromEntries(args) };
}

/** `file` is relative to the workspace; the call names it absolutely. */
const abs = (ctx: ScenarioContext, file: string) => path.resolve(ctx.workspace, file);

export const read = (file: string): Step => (ctx) => {
  if (!offeredTool(ctx, 'read') && offeredTool(ctx, 'shell')) return shell(`cat ${shellQuote(file)}`)(ctx);
  const tool = findTool(ctx, 'read');
  return call(tool, [[argName(tool, 'path'), abs(ctx, file)]]);
};

/** Replaces `oldText` with `newText` in `file`; `all` replaces every occurrence (the tool must support it). */
export const edit = (file: string, oldText: string, newText: string, opts: { all?: boolean } = {}): Step => (ctx) => {
  if (!offeredTool(ctx, 'edit') && offeredTool(ctx, 'shell')) return shell(applyPatchCommand(ctx, file, oldText, newText, opts))(ctx);
  const tool = findTool(ctx, 'edit');
  const args: Array<[string, unknown]> = [
    [argName(tool, 'path'), abs(ctx, file)],
    [argName(tool, 'old'), oldText],
    [argName(tool, 'new'), newText],
  ];
  if (opts.all) args.push([argName(tool, 'all'), true]);
  return call(tool, args);
};

export const write = (file: string, content: string): Step => (ctx) => {
  if (!offeredTool(ctx, 'write') && offeredTool(ctx, 'shell')) return shell(`cat > ${shellQuote(file)} <<'GREENLOOP_EOF'\n${content}\nGREENLOOP_EOF`)(ctx);
  const tool = findTool(ctx, 'write');
  return call(tool, [[argName(tool, 'path'), abs(ctx, file)], [argName(tool, 'content'), content]]);
};

export const shell = (command: string): Step => (ctx) => {
  const tool = findTool(ctx, 'shell');
  return call(tool, [[argName(tool, 'command'), command]]);
};

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The edit as Codex's apply_patch format (run in its shell, as its prompt tells the model to): apply_patch replaces
 * whole lines, so each occurrence of `oldText` in the file as it is now grows to the lines it touches. When the
 * text is not there, the patch names `oldText`'s own lines and fails in the agent as a stale edit would.
 */
export function applyPatchCommand(ctx: ScenarioContext, file: string, oldText: string, newText: string, opts: { all?: boolean } = {}): string {
  let content = '';
  try {
    content = fs.readFileSync(abs(ctx, file), 'utf8');
  } catch {
    // A missing file: the patch below fails in the agent, which is what the scenario would see with an edit tool.
  }
  const hunks: string[] = [];
  for (let at = content.indexOf(oldText); at >= 0; at = content.indexOf(oldText, at + oldText.length)) {
    const start = content.lastIndexOf('\n', at - 1) + 1;
    const lineEnd = content.indexOf('\n', at + oldText.length);
    const end = lineEnd < 0 ? content.length : lineEnd;
    const before = content.slice(start, end);
    const after = content.slice(start, at) + newText + content.slice(at + oldText.length, end);
    hunks.push(hunk(before, after));
    if (!opts.all) break;
  }
  if (!hunks.length) hunks.push(hunk(oldText, newText));
  const patch = ['*** Begin Patch', `*** Update File: ${file}`, ...hunks, '*** End Patch'].join('\n');
  return `apply_patch <<'GREENLOOP_PATCH'\n${patch}\nGREENLOOP_PATCH`;
}

const hunk = (before: string, after: string) =>
  ['@@', ...before.split('\n').map((l) => `-${l}`), ...after.split('\n').map((l) => `+${l}`)].join('\n');

export const say = (text: string): Step => () => ({ text });

/**
 * A scenario that plays `steps` in order, one per assistant turn of the conversation, then `repeat` in a cycle
 * forever (a stuck model never stops by itself); without `repeat`, it says "Done." once the steps run out.
 * The index is the number of assistant messages in the request, so a new agent run starts again at step 0, and a
 * request the agent retries gets the same answer.
 */
export function scripted(name: string, steps: Step[], repeat: Step[] = []): Scenario {
  return {
    name,
    next(ctx) {
      if (ctx.turn < steps.length) return steps[ctx.turn]!(ctx);
      if (repeat.length) return repeat[(ctx.turn - steps.length) % repeat.length]!(ctx);
      return { text: 'Done.' };
    },
  };
}

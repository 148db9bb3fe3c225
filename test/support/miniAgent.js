// A small but real agent CLI for tests: reads its task on stdin, talks Chat Completions to $OPENAI_BASE_URL, and
// does what each answer says until an answer says nothing it can do (as every agent loop ends its turn):
//   WRITE <path>\n<content>   writes the file            READ <path>   sends the file back
//   RUN <command>             runs it, sends the output   SLEEP <s>     sleeps (a slow agent)
//   EXIT <code>               exits with that code at once
// It also offers three function tools, shaped as qwen's, and answers their calls with tool messages: read_file,
// edit (shows the edited lines; fails when old_string is not in the file, as qwen's does) and run_shell_command.
// MINI_AGENT_STUBBORN=1 keeps asking even after an answer it cannot act on (an agent that never stops by itself).
'use strict';
const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

const fn = (name, properties) => ({ type: 'function', function: { name, parameters: { type: 'object', properties, required: Object.keys(properties) } } });
const TOOLS = [
  fn('read_file', { absolute_path: { type: 'string' } }),
  fn('edit', { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }),
  fn('run_shell_command', { command: { type: 'string' } }),
];

function run(command) {
  try {
    return { output: execSync(command, { encoding: 'utf8', stdio: 'pipe' }), code: 0 };
  } catch (err) {
    return { output: `${err.stdout || ''}${err.stderr || ''}`, code: err.status ?? 1 };
  }
}

function callTool(name, args) {
  if (name === 'read_file') return fs.readFileSync(args.absolute_path, 'utf8');
  if (name === 'edit') {
    const text = fs.readFileSync(args.file_path, 'utf8');
    if (!text.includes(args.old_string)) return `Failed to edit, 0 occurrences found for old_string in ${args.file_path}.`;
    const at = text.indexOf(args.old_string);
    const after = text.slice(0, at) + args.new_string + text.slice(at + args.old_string.length);
    fs.writeFileSync(args.file_path, after);
    // As qwen does, the edited lines come back: a repeat of an edit that grows the file shows it grown.
    const first = after.lastIndexOf('\n', at) + 1;
    const end = after.indexOf('\n', at + args.new_string.length);
    return `The file: ${args.file_path} has been updated. The edited lines:\n${after.slice(first, end < 0 ? undefined : end)}`;
  }
  if (name === 'run_shell_command') {
    const { output, code } = run(args.command);
    return `Command: ${args.command}\nOutput: ${output}\nExit Code: ${code}`;
  }
  return `Unknown tool ${name}.`;
}

async function main() {
  const task = fs.readFileSync(0, 'utf8');
  const base = process.env.OPENAI_BASE_URL;
  const messages = [{ role: 'user', content: task }];
  for (;;) {
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY || ''}` },
      body: JSON.stringify({ model: process.env.OPENAI_MODEL || 'scripted', messages, tools: TOOLS }),
    });
    if (!res.ok) {
      console.error(`model error ${res.status}`);
      process.exit(1);
    }
    const message = (await res.json()).choices[0].message;
    const content = String(message.content || '');
    if (Array.isArray(message.tool_calls) && message.tool_calls.length) {
      messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: message.tool_calls });
      for (const call of message.tool_calls) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: callTool(call.function.name, JSON.parse(call.function.arguments || '{}')) });
      }
      continue;
    }
    messages.push({ role: 'assistant', content });
    const [head, ...rest] = content.split('\n');
    const [verb, ...args] = head.split(' ');
    const arg = args.join(' ');
    let result;
    if (verb === 'WRITE') {
      fs.mkdirSync(path.dirname(arg), { recursive: true });
      fs.writeFileSync(arg, rest.join('\n'));
      result = `wrote ${arg}`;
    } else if (verb === 'READ') {
      result = fs.readFileSync(arg, 'utf8');
    } else if (verb === 'RUN') {
      result = run(arg).output;
    } else if (verb === 'SLEEP') {
      await new Promise((r) => setTimeout(r, Number(arg) * 1000));
      result = 'slept';
    } else if (verb === 'EXIT') {
      console.log(`exiting with ${arg}`);
      process.exit(Number(arg));
    } else {
      console.log(content);
      if (process.env.MINI_AGENT_STUBBORN !== '1') return;
      result = 'go on';
    }
    messages.push({ role: 'user', content: result });
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});

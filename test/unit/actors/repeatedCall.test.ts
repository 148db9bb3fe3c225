// The gateway's repeated-call witness on its own (issue 38), over conversations shaped as agents send them: the same
// call that may change files, made again between two test runs that failed the same tests with the same messages,
// is a poll without progress — its text still there after it, each repeat appending one more comment, so no step and
// no file state repeats. A repeat that changes what the tests say, a read, or the same edit in another file is none.
import { strict as assert } from 'assert';
import { StallWatch } from '../../../src/actors/gateway/stallWatch';
import { changesState } from '../../../src/actors/gateway/changesState';
import { codexExecResult, nodeTestOutput, qwenEditResult, qwenShellResult } from '../support/agentToolOutput';

const CWD = '/tmp/gl-agent-ws-x/calc3';
const ALL = ['add adds', 'mul multiplies', 'square squares'];
let ids = 0;

function step(name: string, args: object | string, result: string): object[] {
  const id = `call_${++ids}`;
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return [
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: text } }] },
    { role: 'tool', tool_call_id: id, content: [{ type: 'text', text: result }] },
  ];
}
const npmTest = (failing: string[], passing: string[] = []) => step('run_shell_command', { command: 'npm test' }, qwenShellResult(nodeTestOutput(failing, passing)));
const readCalc = (n: number) => step('read_file', { absolute_path: `${CWD}/calc.js` }, `function add(a, b) {${' // operands checked'.repeat(n)}\n  return a - b;\n}`);
const EDIT = { file_path: `${CWD}/calc.js`, old_string: 'function add(a, b) {', new_string: 'function add(a, b) { // operands checked' };
const growingEdit = (n: number, args: object | string = EDIT) => step('edit', args, qwenEditResult(n));
/** A test run whose one failure says how far a counter got: `1 !== 3`, then `2 !== 3`. */
const counterTest = (got: number) => step('run_shell_command', { command: 'npm test' }, qwenShellResult(nodeTestOutput(['total counts to three']).replace(/-1 !== 5/g, `${got} !== 3`)));

async function watch(steps: object[][]): Promise<{ said: Array<string | null>; w: StallWatch }> {
  const w = new StallWatch(CWD);
  const messages: object[] = [{ role: 'system', content: 'You are Qwen Code' }, { role: 'user', content: 'Fix the tests.' }];
  const said: Array<string | null> = [];
  for (const s of steps) {
    messages.push(...s);
    said.push(await w.check(messages));
  }
  return { said, w };
}

describe('stall watch: the same call again, the tests saying the same (issue 38)', () => {
  it('says "repeated tool call" at the test run after the same growing edit, read before each try, and names the call', async () => {
    const { said, w } = await watch([readCalc(0), growingEdit(1), npmTest(ALL), readCalc(1), growingEdit(2), npmTest(ALL)]);
    assert.deepEqual(said, [null, null, null, null, null, 'repeated-tool-call']);
    assert.equal(w.repeated?.call, 'edit {"file_path":"calc.js","new_string":"function add(a, b) { // operands checked","old_string":"function add(a, b) {"}');
  });

  it('takes the arguments as normalized: key order, the JSON\'s spacing, the file named from the workspace', async () => {
    const reordered = `{ "new_string": "function add(a, b) { // operands checked",\n  "old_string": "function add(a, b) {", "file_path": "calc.js" }`;
    const { said } = await watch([growingEdit(1), npmTest(ALL), growingEdit(2, reordered), npmTest(ALL)]);
    assert.equal(said.at(-1), 'repeated-tool-call');
  });

  it('never stops a repeated edit whose tests say something new each time: a counter it increments', async () => {
    const count = { file_path: `${CWD}/tally.js`, old_string: '  let s = 0;', new_string: '  let s = 0; s += 1;' };
    // As qwen's edit tool answers: the edited line, one `s += 1` longer each time.
    const counted = (n: number) => step('edit', count, `The file: ${CWD}/tally.js has been updated. The edited lines:\n  let s = 0;${' s += 1;'.repeat(n)}`);
    const { said } = await watch([counted(1), counterTest(1), counted(2), counterTest(2), counted(3), npmTest([], ['total counts to three'])]);
    assert.deepEqual(said.filter(Boolean), []);
  });

  it('never takes the same edit in another file for a repeat, though the tests fail the same way after it', async () => {
    const fix = (file: string) => step('edit', { file_path: `${CWD}/${file}`, old_string: '  return 2;', new_string: '  return 1;' }, 'ok');
    const { said } = await watch([fix('a.js'), npmTest(['every part is one']), fix('b.js'), npmTest(['every part is one'])]);
    assert.deepEqual(said, [null, null, null, null]);
  });

  it('never counts a repeat across a change in the tests: the agent fixed something else between the two calls', async () => {
    const fixAdd = step('edit', { file_path: `${CWD}/calc.js`, old_string: 'return a - b;', new_string: 'return a + b;' }, 'ok');
    const rest = ['mul multiplies', 'square squares'];
    const { said } = await watch([growingEdit(1), npmTest(ALL), fixAdd, npmTest(rest, ['add adds']), growingEdit(2), npmTest(rest, ['add adds'])]);
    assert.deepEqual(said, [null, null, null, null, null, null]);
  });

  it('lets a new edit beside the repeated one count as trying something new', async () => {
    const other = step('edit', { file_path: `${CWD}/calc.js`, old_string: 'return a - b;', new_string: 'return b - a;' }, 'ok');
    const { said } = await watch([growingEdit(1), npmTest(ALL), growingEdit(2), other, npmTest(ALL)]);
    assert.deepEqual(said, [null, null, null, null, null]);
  });

  it('leaves reads to the other rules: reading the file again between the same test results is no repeated call', async () => {
    const { said } = await watch([readCalc(0), npmTest(ALL), readCalc(0), npmTest(ALL)]);
    assert.ok(!said.includes('repeated-tool-call'), said.join(', '));
  });

  it('compares runs of the same test command only, and never calls a green run a stall', async () => {
    const other = (failing: string[]) => step('run_shell_command', { command: 'node --test test/calc.test.js' }, nodeTestOutput(failing));
    assert.deepEqual((await watch([growingEdit(1), npmTest(ALL), growingEdit(2), other(ALL)])).said, [null, null, null, null]);
    assert.deepEqual((await watch([growingEdit(1), npmTest([]), growingEdit(2), npmTest([])])).said, [null, null, null, null]);
  });

  it('sees Codex\'s repeated apply_patch through its shell, and Claude Code\'s repeated Edit with its own argument names', async () => {
    const patch = { cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: calc.js\n@@\n-function add(a, b) {\n+function add(a, b) { // checked\n*** End Patch\nEOF", workdir: CWD };
    const exec = (args: object, out: string) => step('exec_command', args, codexExecResult(out));
    const tests = () => exec({ cmd: 'npm test', workdir: CWD }, nodeTestOutput(ALL));
    assert.equal((await watch([exec(patch, 'Success.'), tests(), exec(patch, 'Success.'), tests()])).said.at(-1), 'repeated-tool-call');
    const claude = { file_path: `${CWD}/calc.js`, old_string: 'function add(a, b) {', new_string: 'function add(a, b) { // checked' };
    const bash = () => step('Bash', { command: 'npm test', description: 'Run the tests' }, nodeTestOutput(ALL));
    assert.equal((await watch([step('Edit', claude, 'ok'), bash(), step('Edit', claude, 'ok'), bash()])).said.at(-1), 'repeated-tool-call');
  });

  it('keeps every call of the attempt that may have changed files, each once, for the next attempt to be compared with', async () => {
    const { w } = await watch([readCalc(0), growingEdit(1), npmTest(ALL), readCalc(1), growingEdit(2), npmTest(ALL)]);
    assert.deepEqual(w.changingCalls.map((c) => c.call), ['edit {"file_path":"calc.js","new_string":"function add(a, b) { // operands checked","old_string":"function add(a, b) {"}']);
  });
});

describe('which tool calls may change the workspace', () => {
  const yes = (name: string, args: object | string) => assert.equal(changesState(name, typeof args === 'string' ? args : JSON.stringify(args)), true, `${name} ${JSON.stringify(args)}`);
  const no = (name: string, args: object | string) => assert.equal(changesState(name, typeof args === 'string' ? args : JSON.stringify(args)), false, `${name} ${JSON.stringify(args)}`);

  it('counts the edit and write tools of qwen, Claude Code, Codex and Gemini, never their notes or a view', () => {
    for (const name of ['edit', 'write_file', 'replace', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'apply_patch', 'create_file']) yes(name, { file_path: 'a.js' });
    yes('apply_patch', '*** Begin Patch\n*** End Patch');
    for (const name of ['read_file', 'Read', 'glob', 'Grep', 'list_directory', 'todo_write', 'TodoWrite', 'save_memory', 'update_plan', 'write_stdin']) no(name, { path: 'a.js' });
    no('str_replace_based_edit_tool', { command: 'view', path: 'a.js' });
  });

  it('counts a shell command unless every step of it only looks', () => {
    for (const command of ['cat calc.js', 'grep -n add calc.js | head -5', 'git diff && git status', 'sed -n 1,20p calc.js', 'ls -la 2>/dev/null', 'find . -name "*.js"']) no('run_shell_command', { command });
    for (const command of ["sed -i 's/a - b/a + b/' calc.js", 'echo x > calc.js', 'cat a >> b', 'node fix.js', 'git checkout calc.js', 'find . -name "*.tmp" -delete', 'npm install', 'ls | tee files.txt']) yes('run_shell_command', { command });
    yes('exec_command', { cmd: ['bash', '-lc', "apply_patch <<'EOF'\n*** Begin Patch\nEOF"] });
  });
});

// The gateway's stall witnesses on their own: an agent's test runs read with Greenloop's parsers, and the "known poll,
// no progress" rule (the same call answered the same again), over conversations shaped as agents send them.
import { strict as assert } from 'assert';
import { StallWatch } from '../../../src/actors/gateway/stallWatch';
import { codexExecResult, nodeTestOutput, qwenEditResult, qwenShellResult } from '../support/agentToolOutput';

const CWD = '/tmp/gl-agent-ws-x/calc3';
const ALL = ['add adds', 'mul multiplies', 'square squares'];
let ids = 0;

/** One chat-form step: the assistant's call and the tool's result. */
function step(name: string, args: object, result: string): object[] {
  const id = `call_${++ids}`;
  return [
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
    { role: 'tool', tool_call_id: id, content: [{ type: 'text', text: result }] },
  ];
}
const npmTest = (failing: string[], passing: string[] = []) => step('run_shell_command', { command: 'npm test' }, qwenShellResult(nodeTestOutput(failing, passing)));
const growingEdit = (n: number) => step('edit', { file_path: `${CWD}/calc.js`, old_string: 'function add(a, b) {', new_string: 'function add(a, b) { // operands checked' }, qwenEditResult(n));

/** Feeds the steps one request at a time, as the agent sends them; returns what the watch said after each. */
function watch(steps: object[][]): Array<string | null> {
  const w = new StallWatch(CWD);
  const messages: object[] = [{ role: 'system', content: 'You are Qwen Code' }, { role: 'user', content: 'Fix the tests.' }];
  return steps.map((s) => {
    messages.push(...s);
    return w.check(messages);
  });
}

describe('stall watch (inside an agent attempt)', () => {
  it('says the attempt stalled when test runs fail as many tests twice after the first, though no two edit results are alike', () => {
    const said = watch([npmTest(ALL), growingEdit(1), npmTest(ALL), growingEdit(2), npmTest(ALL), growingEdit(3), npmTest(ALL)]);
    assert.deepEqual(said, [null, null, null, null, 'tests-stalled', null, 'tests-stalled']);
  });

  it('never stops an agent whose test runs keep failing fewer tests, one run without progress between them allowed', () => {
    const said = watch([
      npmTest(ALL), growingEdit(1), npmTest(ALL),
      step('edit', { f: 'add' }, 'ok'), npmTest(['mul multiplies', 'square squares'], ['add adds']),
      growingEdit(2), npmTest(['mul multiplies', 'square squares'], ['add adds']),
      step('edit', { f: 'mul' }, 'ok'), npmTest(['square squares'], ['add adds', 'mul multiplies']),
      step('edit', { f: 'square' }, 'ok'), npmTest([], ALL), npmTest([], ALL),
    ]);
    assert.deepEqual(said.filter(Boolean), []);
  });

  it('counts a set that changes without shrinking as no progress (fixing one test by breaking another)', () => {
    const said = watch([npmTest(['add adds']), step('edit', { n: 1 }, 'ok'), npmTest(['mul multiplies']), step('edit', { n: 2 }, 'ok'), npmTest(['square squares'])]);
    assert.equal(said.at(-1), 'tests-stalled');
  });

  it('takes the same command described in other words (Claude Code, qwen) for the same test run', () => {
    const bash = (description: string, failing: string[]) => step('Bash', { command: 'npm test', description, timeout: 120000 }, nodeTestOutput(failing));
    const said = watch([bash('Run the tests', ALL), growingEdit(1), bash('Run the tests again', ALL), growingEdit(2), bash('Check whether the fix worked', ALL)]);
    assert.equal(said.at(-1), 'tests-stalled');
  });

  it('keeps the runs of different test commands apart', () => {
    const one = (failing: string[]) => step('run_shell_command', { command: 'node --test test/calc.test.js' }, nodeTestOutput(failing));
    const said = watch([npmTest(ALL), one(['add adds']), npmTest(ALL), one(['add adds']), npmTest(['add adds'])]);
    assert.deepEqual(said, [null, null, null, null, null]);
  });

  it('says "unchanged result" for the same call answered the same a third time with other work between, and not before', () => {
    const build = () => step('run_shell_command', { command: 'npm run build' }, qwenShellResult('src/calc.ts(3,5): error TS2322: Type string is not assignable to type number.'));
    const said = watch([build(), growingEdit(1), build(), growingEdit(2), build()]);
    assert.deepEqual(said, [null, null, null, null, 'unchanged-result']);
  });

  it('lets an agent read an unchanged file again after a failed edit (twice is no stall)', () => {
    const read = () => step('read_file', { absolute_path: `${CWD}/calc.js` }, "'use strict';\nfunction add(a, b) {\n  return a - b;\n}\n");
    const failed = () => step('edit', { old_string: 'a + b' }, 'Failed to edit, 0 occurrences found for old_string.');
    assert.deepEqual(watch([read(), failed(), read()]), [null, null, null]);
  });

  it('lets an agent that fixes one test after another re-read the same unchanged file as often as it likes', () => {
    const readTests = () => step('read_file', { absolute_path: `${CWD}/test/calc.test.js` }, "test('add adds', () => assert.equal(add(2, 3), 5));");
    const said = watch([
      npmTest(ALL), readTests(), step('edit', { f: 'add' }, 'ok'), npmTest(['mul multiplies', 'square squares']),
      readTests(), step('edit', { f: 'mul' }, 'ok'), npmTest(['square squares']),
      readTests(), step('edit', { f: 'square' }, 'ok'), npmTest([]),
    ]);
    assert.deepEqual(said.filter(Boolean), []);
  });

  it('sees a call whose result changes every time as making a difference', () => {
    const said = watch([1, 2, 3, 4].map((n) => step('run_shell_command', { command: 'git diff --stat' }, ` calc.js | ${n} +`)));
    assert.deepEqual(said, [null, null, null, null]);
  });

  it("reads through Codex's exec noise: a new chunk id, wall time and token count each call", () => {
    const exec = (out: string) => step('exec_command', { cmd: 'npm run lint', workdir: CWD }, codexExecResult(out));
    const said = watch([exec('calc.js:2:3 error no-unused-vars'), exec('calc.js:2:3 error no-unused-vars'), exec('calc.js:2:3 error no-unused-vars')]);
    assert.deepEqual(said, [null, null, 'unchanged-result']);
    const tests = (failing: string[]) => step('exec_command', { cmd: 'npm test', workdir: CWD }, codexExecResult(nodeTestOutput(failing)));
    assert.deepEqual(watch([tests(ALL), tests(ALL), tests(ALL)]), [null, null, 'tests-stalled']);
  });

  it('lets Codex wait on a slow command: polls of a process still running are no repeats and no test runs', () => {
    const poll = () => step('write_stdin', { session_id: 3, chars: '' }, codexExecResult('').replace(/Process exited with code 1/, 'Process running with session ID 3'));
    assert.deepEqual(watch([poll(), poll(), poll(), poll()]), [null, null, null, null]);
  });

  it('says it once, on the request after the results that show it', () => {
    const said = watch([npmTest(ALL), npmTest(ALL), npmTest(ALL), step('read_file', { absolute_path: `${CWD}/calc.js` }, 'x')]);
    assert.deepEqual(said, [null, null, 'tests-stalled', null]);
  });

  it('does not take a file that looks like test output, read with a file tool, for a test run', () => {
    const log = () => step('read_file', { absolute_path: `${CWD}/old-run.log` }, nodeTestOutput(ALL));
    const said = watch([log(), growingEdit(1), log(), growingEdit(2)]);
    assert.deepEqual(said, [null, null, null, null]);
  });
});

// The gateway's stall witnesses on their own: an agent's test runs read with Greenloop's parsers, the "known poll,
// no progress" rule (the same call answered the same again), and a test run on the very files the last one ran on (read
// by a real snapshot store, as the session hands it to the gateway), over conversations shaped as agents send them.
import { strict as assert } from 'assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StallWatch } from '../../../src/actors/gateway/stallWatch';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { codexExecResult, nodeTestOutput, qwenEditResult, qwenShellResult } from '../support/agentToolOutput';
import { tempDir } from '../support/cli';

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
async function watch(steps: object[][]): Promise<Array<string | null>> {
  const w = new StallWatch(CWD);
  const messages: object[] = [{ role: 'system', content: 'You are Qwen Code' }, { role: 'user', content: 'Fix the tests.' }];
  const said: Array<string | null> = [];
  for (const s of steps) {
    messages.push(...s);
    said.push(await w.check(messages));
  }
  return said;
}

describe('stall watch (inside an agent attempt)', () => {
  it('says the attempt stalled when test runs fail as many tests twice after the first, though no two edit results are alike', async () => {
    const said = await watch([npmTest(ALL), growingEdit(1), npmTest(ALL), growingEdit(2), npmTest(ALL), growingEdit(3), npmTest(ALL)]);
    assert.deepEqual(said, [null, null, null, null, 'tests-stalled', null, 'tests-stalled']);
  });

  it('never stops an agent whose test runs keep failing fewer tests, one run without progress between them allowed', async () => {
    const said = await watch([
      npmTest(ALL), growingEdit(1), npmTest(ALL),
      step('edit', { f: 'add' }, 'ok'), npmTest(['mul multiplies', 'square squares'], ['add adds']),
      growingEdit(2), npmTest(['mul multiplies', 'square squares'], ['add adds']),
      step('edit', { f: 'mul' }, 'ok'), npmTest(['square squares'], ['add adds', 'mul multiplies']),
      step('edit', { f: 'square' }, 'ok'), npmTest([], ALL), npmTest([], ALL),
    ]);
    assert.deepEqual(said.filter(Boolean), []);
  });

  it('counts a set that changes without shrinking as no progress (fixing one test by breaking another)', async () => {
    const said = await watch([npmTest(['add adds']), step('edit', { n: 1 }, 'ok'), npmTest(['mul multiplies']), step('edit', { n: 2 }, 'ok'), npmTest(['square squares'])]);
    assert.equal(said.at(-1), 'tests-stalled');
  });

  it('takes the same command described in other words (Claude Code, qwen) for the same test run', async () => {
    const bash = (description: string, failing: string[]) => step('Bash', { command: 'npm test', description, timeout: 120000 }, nodeTestOutput(failing));
    const said = await watch([bash('Run the tests', ALL), growingEdit(1), bash('Run the tests again', ALL), growingEdit(2), bash('Check whether the fix worked', ALL)]);
    assert.equal(said.at(-1), 'tests-stalled');
  });

  it('keeps the runs of different test commands apart', async () => {
    const one = (failing: string[]) => step('run_shell_command', { command: 'node --test test/calc.test.js' }, nodeTestOutput(failing));
    const said = await watch([npmTest(ALL), one(['add adds']), npmTest(ALL), one(['add adds']), npmTest(['add adds'])]);
    assert.deepEqual(said, [null, null, null, null, null]);
  });

  it('says "unchanged result" for the same call answered the same a third time with other work between, and not before', async () => {
    const build = () => step('run_shell_command', { command: 'npm run build' }, qwenShellResult('src/calc.ts(3,5): error TS2322: Type string is not assignable to type number.'));
    const said = await watch([build(), growingEdit(1), build(), growingEdit(2), build()]);
    assert.deepEqual(said, [null, null, null, null, 'unchanged-result']);
  });

  it('lets an agent read an unchanged file again after a failed edit (twice is no stall)', async () => {
    const read = () => step('read_file', { absolute_path: `${CWD}/calc.js` }, "'use strict';\nfunction add(a, b) {\n  return a - b;\n}\n");
    const failed = () => step('edit', { old_string: 'a + b' }, 'Failed to edit, 0 occurrences found for old_string.');
    assert.deepEqual(await watch([read(), failed(), read()]), [null, null, null]);
  });

  it('lets an agent that fixes one test after another re-read the same unchanged file as often as it likes', async () => {
    const readTests = () => step('read_file', { absolute_path: `${CWD}/test/calc.test.js` }, "test('add adds', () => assert.equal(add(2, 3), 5));");
    const said = await watch([
      npmTest(ALL), readTests(), step('edit', { f: 'add' }, 'ok'), npmTest(['mul multiplies', 'square squares']),
      readTests(), step('edit', { f: 'mul' }, 'ok'), npmTest(['square squares']),
      readTests(), step('edit', { f: 'square' }, 'ok'), npmTest([]),
    ]);
    assert.deepEqual(said.filter(Boolean), []);
  });

  it('sees a call whose result changes every time as making a difference', async () => {
    const said = await watch([1, 2, 3, 4].map((n) => step('run_shell_command', { command: 'git diff --stat' }, ` calc.js | ${n} +`)));
    assert.deepEqual(said, [null, null, null, null]);
  });

  it("reads through Codex's exec noise: a new chunk id, wall time and token count each call", async () => {
    const exec = (out: string) => step('exec_command', { cmd: 'npm run lint', workdir: CWD }, codexExecResult(out));
    const said = await watch([exec('calc.js:2:3 error no-unused-vars'), exec('calc.js:2:3 error no-unused-vars'), exec('calc.js:2:3 error no-unused-vars')]);
    assert.deepEqual(said, [null, null, 'unchanged-result']);
    const tests = (failing: string[]) => step('exec_command', { cmd: 'npm test', workdir: CWD }, codexExecResult(nodeTestOutput(failing)));
    assert.deepEqual(await watch([tests(ALL), tests(ALL), tests(ALL)]), [null, null, 'tests-stalled']);
  });

  it('lets Codex wait on a slow command: polls of a process still running are no repeats and no test runs', async () => {
    const poll = () => step('write_stdin', { session_id: 3, chars: '' }, codexExecResult('').replace(/Process exited with code 1/, 'Process running with session ID 3'));
    assert.deepEqual(await watch([poll(), poll(), poll(), poll()]), [null, null, null, null]);
  });

  it('says it once, on the request after the results that show it', async () => {
    const said = await watch([npmTest(ALL), npmTest(ALL), npmTest(ALL), step('read_file', { absolute_path: `${CWD}/calc.js` }, 'x')]);
    assert.deepEqual(said, [null, null, 'tests-stalled', null]);
  });

  it('does not take a file that looks like test output, read with a file tool, for a test run', async () => {
    const log = () => step('read_file', { absolute_path: `${CWD}/old-run.log` }, nodeTestOutput(ALL));
    const said = await watch([log(), growingEdit(1), log(), growingEdit(2)]);
    assert.deepEqual(said, [null, null, null, null]);
  });
});

describe('stall watch: the files each test run ran on (issue 30)', () => {
  let ws: string;
  let stateDir: string;
  beforeEach(() => {
    ws = tempDir('stall-ws');
    stateDir = tempDir('stall-state');
    fs.writeFileSync(path.join(ws, 'calc.js'), 'function add(a, b) {\n  return a - b;\n}\n');
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  /** A step and what it did to the files before its result came back (an edit tool writes, then answers). */
  interface FileStep { messages: object[]; writes?: Record<string, string> }
  const test = (failing: string[]): FileStep => ({ messages: npmTest(failing) });
  const read = (): FileStep => ({ messages: step('read_file', { absolute_path: `${ws}/calc.js` }, fs.readFileSync(path.join(ws, 'calc.js'), 'utf8')) });
  const edit = (to: string): FileStep => ({ messages: step('edit', { file_path: `${ws}/calc.js`, new_string: to }, 'The file has been updated.'), writes: { 'calc.js': to } });
  const failedEdit = (): FileStep => ({ messages: step('edit', { file_path: `${ws}/calc.js`, old_string: 'return a - b;' }, 'Failed to edit, 0 occurrences found for old_string.') });

  /** Plays the steps against a real workspace; the watch reads its state through a real snapshot store. */
  async function watchFiles(steps: FileStep[]): Promise<Array<string | null>> {
    const store = await openSnapshotStore({ workspace: ws, stateDir, runId: 'r1', onWarning: () => undefined });
    const w = new StallWatch(ws, () => store.currentTree());
    const messages: object[] = [{ role: 'system', content: 'You are Qwen Code' }, { role: 'user', content: 'Fix the tests.' }];
    const said: Array<string | null> = [];
    for (const s of steps) {
      for (const [rel, text] of Object.entries(s.writes ?? {})) fs.writeFileSync(path.join(ws, rel), text);
      messages.push(...s.messages);
      said.push(await w.check(messages));
    }
    return said;
  }

  it('stops at once a test run on the files the last one ran on, failing the same tests (the edit between them failed)', async () => {
    const wrong = 'function add(a, b) {\n  return b - a;\n}\n';
    const said = await watchFiles([read(), edit(wrong), test(ALL), read(), failedEdit(), test(ALL)]);
    assert.deepEqual(said, [null, null, null, null, null, 'same-files-retested']);
  });

  it('never stops a test run that follows a real edit, though it fails the same tests', async () => {
    const said = await watchFiles([
      test(ALL), edit('function add(a, b) {\n  return b - a;\n}\n'), test(ALL),
      read(), edit('function add(a, b) {\n  return -(a - b);\n}\n'), test(ALL),
    ]);
    // The third run is the second without progress: the test-run witness, not the files, says so.
    assert.deepEqual(said, [null, null, null, null, null, 'tests-stalled']);
  });

  it('compares with the last run only: back on files tested before, after a run on other files between, is no stall', async () => {
    const a = fs.readFileSync(path.join(ws, 'calc.js'), 'utf8');
    const b = 'function add(a, b) {\n  return b - a;\n}\n';
    const said = await watchFiles([test(ALL), edit(b), test(['add adds']), edit(a), test(ALL)]);
    assert.deepEqual(said, [null, null, null, null, null]);
  });

  it('takes a run whose failures changed on the same files (a flaky test) for a new fact, and a green re-run for no stall', async () => {
    assert.deepEqual(await watchFiles([test(ALL), read(), test(['add adds', 'mul multiplies'])]), [null, null, null]);
    assert.deepEqual(await watchFiles([test([]), read(), test([])]), [null, null, null]);
  });

  it('counts the files a snapshot records: what the tests write into coverage/ changes nothing', async () => {
    const coverage = (n: number): FileStep => ({ ...test(ALL), writes: { 'coverage/lcov.info': `run ${n}\n` } });
    fs.mkdirSync(path.join(ws, 'coverage'));
    assert.deepEqual(await watchFiles([coverage(1), read(), coverage(2)]), [null, null, 'same-files-retested']);
  });

  it('counts a test run resent beside it (a side request with the same conversation) once', async () => {
    const store = await openSnapshotStore({ workspace: ws, stateDir, runId: 'r1', onWarning: () => undefined });
    const w = new StallWatch(ws, () => store.currentTree());
    const messages: object[] = [{ role: 'user', content: 'Fix the tests.' }, ...npmTest(ALL)];
    assert.deepEqual(await Promise.all([w.check(messages), w.check([...messages]), w.check([...messages, { role: 'user', content: 'Who speaks next?' }])]), [null, null, null]);
  });

  it('compares nothing when the files cannot be read (no way given, or the read fails)', async () => {
    const steps = () => [...npmTest(ALL), ...npmTest(ALL)];
    assert.equal(await new StallWatch(ws).check([{ role: 'user', content: 'x' }, ...steps()]), null);
    const failing = new StallWatch(ws, () => Promise.reject(new Error('the store is gone')));
    const messages: object[] = [{ role: 'user', content: 'x' }, ...npmTest(ALL)];
    assert.equal(await failing.check(messages), null);
    messages.push(...npmTest(ALL));
    assert.equal(await failing.check(messages), null);
  });
});

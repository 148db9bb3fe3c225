import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import '../support/fakeVscode';
import { TestTerminal } from '../../../../src/extension/testing/testTerminal';
import { TerminalVerifier } from '../../../../src/extension/testing/terminalVerifier';
import { waitUntil } from '../../support/waitUntil';

describe('test terminal: the person sees what the verifier judges', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-terminal-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function opened(): { pty: TestTerminal; screen: () => string } {
    const pty = new TestTerminal();
    const seen: string[] = [];
    pty.onDidWrite((t) => seen.push(t));
    pty.open();
    return { pty, screen: () => seen.join('') };
  }

  it('streams a real command\'s output into the terminal and captures its exit code and failures', async () => {
    const script = path.join(dir, 'tests.js');
    fs.writeFileSync(script, [
      "console.log('TAP version 13');",
      "console.log('ok 1 - adds');",
      "console.log('not ok 2 - subtracts');",
      "console.log('1..2');",
      "console.error('MARKER from ' + process.env.GREENLOOP_TEST_VAR + ' in ' + process.cwd());",
      'process.exit(3);',
    ].join('\n'));
    const { pty, screen } = opened();
    const verifier = new TerminalVerifier(
      { command: `node ${JSON.stringify(script)}`, cwd: dir, env: { ...process.env, GREENLOOP_TEST_VAR: 'the task env' }, source: 'task "unit"' },
      'off', 30, () => pty,
    );
    verifier.nameNextRuns('baseline');
    const witness = await verifier.verify();

    assert.strictEqual(witness.exitCode, 3);
    assert.deepStrictEqual(witness.failing, ['subtracts']);
    assert.strictEqual(witness.green, false);
    const text = screen();
    assert.match(text, /── Greenloop baseline: node .*tests\.js"? {2}\(task "unit", in /);
    assert.match(text, /not ok 2 - subtracts\r\n/, 'terminal lines end in CRLF');
    assert.ok(text.includes(`MARKER from the task env in ${fs.realpathSync(dir)}`), 'the task\'s env and cwd are used');
    assert.match(text, /── exit code 3 · \d+\.\d s · \x1b\[31m1 failing/);
    assert.ok(!/[^\r]\n/.test(text), 'no bare LF reaches the terminal');
  });

  it('names each run as it is announced, a second run under one name by its number, and shows green', async () => {
    const { pty, screen } = opened();
    const verifier = new TerminalVerifier({ command: 'echo "ok 1 - fine"; echo "1..1"', cwd: dir, source: 'setting greenloop.testCommand' }, 'off', 30, () => pty);
    await verifier.verify();
    verifier.nameNextRuns('attempt 2');
    await verifier.verify();
    const w = await verifier.verify();
    assert.strictEqual(w.green, true);
    const headers = screen().match(/── Greenloop [^:]+:/g);
    assert.deepStrictEqual(headers, ['── Greenloop test run 1:', '── Greenloop attempt 2:', '── Greenloop attempt 2, run 2:']);
    assert.match(screen(), /── exit code 0 · [\d.]+ s · \x1b\[32mgreen/);
  });

  it('counts the test files that did not load apart from the failing tests', async () => {
    const { pty, screen } = opened();
    const capture = path.join(__dirname, '..', '..', '..', 'fixtures', 'captured', 'node', 'tap-srcerror.txt');
    const verifier = new TerminalVerifier({ command: `cat ${JSON.stringify(capture)}; exit 1`, cwd: dir, source: 'setting greenloop.testCommand' }, 'off', 30, () => pty);
    const w = await verifier.verify();
    assert.strictEqual(w.loadErrorFiles.length, 3);
    assert.match(screen(), /── exit code 1 · [\d.]+ s · \x1b\[31m8 failing, 3 test files did not load\x1b\[0m/);
  });

  it('keeps output written before VS Code opened the terminal, in order', () => {
    const pty = new TestTerminal();
    const seen: string[] = [];
    pty.onDidWrite((t) => seen.push(t));
    pty.write('first\n');
    pty.writeLine('second');
    assert.deepStrictEqual(seen, []);
    pty.open();
    assert.deepStrictEqual(seen, ['first\r\n', 'second\r\n']);
    pty.close();
    pty.write('after close');
    assert.strictEqual(seen.length, 2);
  });

  it('shows a test output\'s clipboard write, screen clear and cursor moves as text, and keeps its colours', async () => {
    const script = path.join(dir, 'tests.js');
    fs.writeFileSync(script, [
      "const w = (s) => process.stdout.write(s);",
      "w('TAP version 13\\n');",
      "w('\\x1b[32mok 1 - plain\\x1b[0m\\n');",
      "w('not ok 2 - adds \\x1b]52;c;aGFja2Vk\\x07\\x1b[2J\\u009d52;c;aGFja2Vk\\x07 bell\\x07\\n');",
      "w('fake\\rok 2 - looks fine\\x1b[1A\\n');",
      "w('1..2\\n');",
      'process.exit(1);',
    ].join('\n'));
    const { pty, screen } = opened();
    const command = `node ${JSON.stringify(script)} # \x1b]0;title\x07`;
    const verifier = new TerminalVerifier({ command, cwd: dir, source: 'task "unit"' }, 'off', 30, () => pty);
    const w = await verifier.verify();
    assert.strictEqual(w.failing.length, 1);
    const text = screen();
    const obeyed = /\x1b(?!\[[0-9;:]*m)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]|\r(?!\n)/.exec(text);
    assert.strictEqual(obeyed, null, `a control reached the terminal: ${JSON.stringify(text.slice(Math.max(0, (obeyed?.index ?? 0) - 40), (obeyed?.index ?? 0) + 20))}`);
    assert.ok(text.includes(String.raw`adds \x1b]52;c;aGFja2Vk\x07\x1b[2J\x9d52;c;aGFja2Vk\x07 bell\x07`), text);
    assert.ok(text.includes(String.raw`fake\rok 2 - looks fine\x1b[1A`), text);
    assert.ok(text.includes(String.raw`# \x1b]0;title\x07`), 'the command in the header is shown escaped');
    assert.ok(text.includes('\x1b[32mok 1 - plain\x1b[0m\r\n'), 'the runner\'s colours are kept');
  });

  it('says in the terminal when the command cannot run at all', async () => {
    const { pty, screen } = opened();
    const verifier = new TerminalVerifier({ command: 'greenloop-no-such-command-xyz', cwd: dir, source: 'setting greenloop.testCommand' }, 'off', 30, () => pty);
    await assert.rejects(verifier.verify(), /Test command not found: greenloop-no-such-command-xyz/);
    assert.match(screen(), /── could not run: Test command not found/);
  });
});

describe('a test run stopped half-way proves nothing', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-stopped-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('Stop during the run gives no witness: the terminal says "stopped", never a failing count', async () => {
    // Three failures printed, then the rest of the suite still running when the person presses Stop.
    const script = path.join(dir, 'slow.js');
    fs.writeFileSync(script, [
      "console.log('TAP version 13');",
      "for (let i = 1; i <= 3; i++) console.log('not ok ' + i + ' - early ' + i);",
      'setTimeout(() => {}, 60000);',
    ].join('\n'));
    const pty = new TestTerminal();
    const seen: string[] = [];
    pty.onDidWrite((t) => seen.push(t));
    pty.open();
    const verifier = new TerminalVerifier({ command: `node ${JSON.stringify(script)}`, cwd: dir, source: 'task "test"' }, 'off', 60, () => pty);
    const stop = new AbortController();
    const run = verifier.verify(stop.signal);
    await waitUntil(() => seen.join('').includes('early 3'), 'the third early failure on the terminal');
    stop.abort();
    await assert.rejects(run, (err: Error) => err.name === 'AbortError');
    const screen = seen.join('');
    assert.match(screen, /── stopped/);
    assert.doesNotMatch(screen, /failing|suite did not load|exit code/);
  });
});

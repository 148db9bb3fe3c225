import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import './support/fakeVscode';
import { TestTerminal } from '../../../src/extension/testTerminal';
import { TerminalVerifier } from '../../../src/extension/terminalVerifier';

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

  it('numbers later checks and shows green when the command passes', async () => {
    const { pty, screen } = opened();
    const verifier = new TerminalVerifier({ command: 'echo "ok 1 - fine"; echo "1..1"', cwd: dir, source: 'setting greenloop.testCommand' }, 'off', 30, () => pty);
    await verifier.verify();
    const w = await verifier.verify();
    assert.strictEqual(w.green, true);
    assert.match(screen(), /── Greenloop check 2: echo/);
    assert.match(screen(), /── exit code 0 · [\d.]+ s · \x1b\[32mgreen/);
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

  it('says in the terminal when the command cannot run at all', async () => {
    const { pty, screen } = opened();
    const verifier = new TerminalVerifier({ command: 'greenloop-no-such-command-xyz', cwd: dir, source: 'setting greenloop.testCommand' }, 'off', 30, () => pty);
    await assert.rejects(verifier.verify(), /Test command not found: greenloop-no-such-command-xyz/);
    assert.match(screen(), /── could not run: Test command not found/);
  });
});

// What a model or a test's output says is data: printed on the person's terminal, an escape sequence in it must be
import * as fs from 'fs';
import * as path from 'path';
// shown, never obeyed (ESC]52 would write their clipboard, ESC[2J clear their screen). Real CLI, real runs.
import * as assert from 'assert';
import { runCli, tempDir } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

/** Writes "hacked" to the clipboard (OSC 52), then clears the screen. */
const CLIPBOARD_AND_CLEAR = '\x1b]52;c;aGFja2Vk\x07\x1b[2J';
/** The same clipboard write in its 8-bit form (a C1 OSC): JSON.stringify leaves C1 characters raw. */
const C1_CLIPBOARD = '\u009d52;c;aGFja2Vk\u0007';
/** What survives the parsers' ANSI stripping in a test name: a bell and a backspace. */
const BELL_BACK = 'bell\x07 back\x08';
const HOSTILE_PATH = `src/${CLIPBOARD_AND_CLEAR}${C1_CLIPBOARD}.js`;
const HOSTILE_TEST = `adds ${CLIPBOARD_AND_CLEAR} ${BELL_BACK}`;
/** Any C0 control but \n and \t, DEL, any C1 control. */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** A TAP "suite" over the calc fixture whose first test's name carries escapes, as a runner would print it. */
const TAP_SCRIPT = `
const { add, mul, neg } = require('./src/calc');
const tests = [[${JSON.stringify(HOSTILE_TEST)}, add(2, 3) === 5], ['multiplies', mul(2, 3) === 6], ['negates', neg(4) === -4]];
console.log('TAP version 13');
tests.forEach(([name, ok], i) => console.log((ok ? 'ok ' : 'not ok ') + (i + 1) + ' - ' + name));
console.log('1..' + tests.length);
process.exit(tests.every(([, ok]) => ok) ? 0 : 1);
`;

function firstRawControl(text: string): string {
  const m = RAW_CONTROL.exec(text);
  return m ? `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 20))}` : '';
}

describe('model and test-output text reaches the terminal escaped (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
    h.write('tap.js', TAP_SCRIPT);
  });
  afterEach(async () => {
    await h.close();
  });

  it('greenloop fix shows escapes in file names and test names as text on stderr, and --json keeps them exactly', async () => {
    const hostile = `${edit(HOSTILE_PATH, '', 'module.exports = 1;')}\n${FIX_ADD}`;
    const res = await h.fix([answer(hostile), answer(FIX_ADD), answer(FIX_MUL)], ['--test-cmd', 'node tap.js']);
    assert.strictEqual(res.code, 0, res.stderr);
    // A name with control characters is never created; the refusal says why, escaped like everything else.
    assert.match(res.report.iterations[0].note, /contains a control character \(U\+001B\)/);
    assert.deepEqual(fs.readdirSync(path.join(h.project, 'src')).sort(), ['calc.js']);

    assert.strictEqual(firstRawControl(res.stderr), '', 'a raw control character reached stderr');
    assert.ok(res.stderr.includes(String.raw`edits src/\x1b]52;c;aGFja2Vk\x07\x1b[2J\x9d52;c;aGFja2Vk\x07.js`), `the escaped path is shown:\n${res.stderr}`);
    assert.ok(res.stderr.includes('fixed `adds bell\\x07 back\\x08`'), `the escaped test name is shown:\n${res.stderr}`);

    // JSON is not a terminal rendering, but it may be printed on one: every control is a \u escape, and parsing
    // gives back the exact strings.
    assert.strictEqual(firstRawControl(res.stdout), '', 'a raw control character reached the JSON on stdout');
    assert.ok(res.report.iterations[0].files.includes(HOSTILE_PATH), JSON.stringify(res.report.iterations[0].files));
    assert.ok(res.report.baseline.failing.some((id: string) => id.includes(BELL_BACK)), JSON.stringify(res.report.baseline.failing));
  });

  it('greenloop verify and greenloop parse print test names with escapes as exact JSON with no raw control', async () => {
    const verify = await runCli(['verify', '--cwd', h.project, '--test-cmd', 'node tap.js', '--tsc', 'off']);
    assert.strictEqual(verify.code, 1, verify.stderr);
    assert.strictEqual(firstRawControl(verify.stdout + verify.stderr), '');
    const failing: string[] = JSON.parse(verify.stdout).failing;
    assert.ok(failing.some((id) => id.includes(BELL_BACK)), JSON.stringify(failing));

    const parse = await runCli(['parse', '--format', 'tap', '-'], { input: `TAP version 13\nnot ok 1 - ${HOSTILE_TEST} ${C1_CLIPBOARD}\n1..1\n` });
    assert.strictEqual(parse.code, 0, parse.stderr);
    assert.strictEqual(firstRawControl(parse.stdout), '');
    assert.ok(JSON.parse(parse.stdout).failing[0].id.includes(BELL_BACK), parse.stdout);
  });

  it('an error naming a file with escapes is one line on stderr with the escapes shown', async () => {
    const missing = `${tempDir('esc')}/no-such-${CLIPBOARD_AND_CLEAR}`;
    const res = await runCli(['parse', missing]);
    assert.strictEqual(res.code, 2);
    assert.strictEqual(firstRawControl(res.stderr), '');
    assert.ok(res.stderr.includes(String.raw`no-such-\x1b]52`), res.stderr);
    assert.strictEqual(res.stderr.trimEnd().split('\n').length, 1);
  });
});

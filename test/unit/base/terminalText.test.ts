// What reaches a terminal from a model or a test: shown, never obeyed.
import * as assert from 'assert';
import { forTerminal, jsonText, TerminalOutputFilter } from '../../../src/base/terminalText';

/** Any ESC not starting a colour code, any other C0 control but \n, \t and CRLF, DEL, any C1 control. */
const OBEYED = /\x1b(?!\[[0-9;:]*m)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]|\r(?!\n)/;

describe('terminal text', () => {
  it('forTerminal shows every control character as its escape and leaves ordinary text alone', () => {
    assert.strictEqual(forTerminal('src/\x1b]52;c;aGk=\x07\x1b[2J.js'), String.raw`src/\x1b]52;c;aGk=\x07\x1b[2J.js`);
    assert.strictEqual(forTerminal('a\nb\rc\td\x08e\x7f'), String.raw`a\nb\rc\td\x08e\x7f`);
    assert.strictEqual(forTerminal('\u009d52;c;x\u009c \u009b2J'), String.raw`\x9d52;c;x\x9c \x9b2J`);
    // Bidi overrides reorder what a person reads (a "Trojan Source" file name); line separators break the line.
    assert.strictEqual(forTerminal('evil\u202Esj.exe\u2028'), String.raw`evil\u202esj.exe\u2028`);
    assert.strictEqual(forTerminal('Calculator > add — é ü 日本 ✓'), 'Calculator > add — é ü 日本 ✓');
  });

  it('jsonText is JSON.stringify with DEL, C1 and U+2028/9 escaped too, and parses back to the same value', () => {
    const value = { id: 'a\x1b[2J\u009d52;c;x\u0007\u2028\x7f', n: 1, list: ['é', 'x\ty'] };
    const text = jsonText(value);
    assert.strictEqual(OBEYED.test(text.replace(/\n/g, '')), false, text);
    assert.match(text, /\\u009d52/);
    assert.deepStrictEqual(JSON.parse(text), value);
    assert.strictEqual(jsonText({ plain: 'text' }), JSON.stringify({ plain: 'text' }, null, 2));
  });

  it('a test output filter keeps colours, line breaks and tabs and shows every other control', () => {
    const f = new TerminalOutputFilter();
    const out = f.write('\x1b[31mnot ok 1\x1b[0m\ttab\r\nnext\n\x1b]52;c;aGk=\x07\x1b[2Jcleared\rover\x1b[1;1Hhome\u009b2J\n') + f.flush();
    assert.strictEqual(out, '\x1b[31mnot ok 1\x1b[0m\ttab\r\nnext\n' + String.raw`\x1b]52;c;aGk=\x07\x1b[2Jcleared\rover\x1b[1;1Hhome\x9b2J` + '\n');
    assert.strictEqual(OBEYED.test(out), false);
  });

  it('a colour code or CRLF split across two chunks is kept whole; half an escape at the end is shown', () => {
    const f = new TerminalOutputFilter();
    const pieces = ['ok 1\x1b', '[3', '2mgreen\x1b[0m\r', '\nend\x1b'].map((c) => f.write(c));
    assert.deepStrictEqual(pieces, ['ok 1', '', '\x1b[32mgreen\x1b[0m', '\r\nend']);
    assert.strictEqual(f.flush(), String.raw`\x1b`);
    assert.strictEqual(f.flush(), '');
    // A sequence that never ends is not held forever.
    const g = new TerminalOutputFilter();
    assert.strictEqual(g.write(`\x1b[${'1'.repeat(40)}`), String.raw`\x1b[` + '1'.repeat(40));
  });
});

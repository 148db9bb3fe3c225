// What a READ shows of a long file when no parser is at hand: the function it names, even at line 1,500, and for the
// whole file the part the prompt did not show, in whole lines a SEARCH block can copy. Real files in a temp folder.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readCode, type ReadSources } from '../../../../../src/core/loop/turns/readCode';
import { readRequests } from '../../../../../src/core/loop/turns/readRequests';
import { makePathPolicy } from '../../../../../src/core/edits/pathPolicy';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../../src/session/protectedGlobs';

describe('a READ of a long file, without a parser', () => {
  let root: string;
  let src: ReadSources;
  // 2,000 small functions: about 90 KB, the bug in the one at line 1,501.
  const lines = Array.from({ length: 500 }, (_, i) => [`function f${i}(x) {`, `  return x + ${i};`, '}', '']).flat();
  lines[1501 - 1] = 'function total(items) {';
  lines[1502 - 1] = '  return items.reduce((s, it) => s - it.price, 0);';
  const text = `${lines.join('\n')}\n`;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-read-'));
    fs.mkdirSync(path.join(root, 'lib'));
    fs.writeFileSync(path.join(root, 'lib', 'big.js'), text);
    const policy = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
    src = { policy, unrecorded: async () => [], redact: (t) => t };
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('shows the function a READ path#symbol names at line 1,500, in whole lines, marked as a window', async () => {
    const [req] = readRequests('READ `lib/big.js#total`');
    const got = await readCode(src, req, 'the prompt', 8000);
    assert.strictEqual(got.kind, 'shown');
    const shown = got.kind === 'shown' ? got.text : '';
    assert.match(shown, /^lib\/big\.js \(lines 1499–\d+ of 2000: a window around `total` of whole lines, not cut by a parser/);
    assert.ok(shown.includes('function total(items) {\n  return items.reduce((s, it) => s - it.price, 0);\n}'), shown);
    assert.ok(shown.length < 8000 + 300);
  });

  it('goes on where the prompt cut the file when READ names the whole file', async () => {
    const prompt = `## Files\nlib/big.js\n\`\`\`\n${text.slice(0, 12_000)}\n[… file cut at 12000 characters …]\n\`\`\``;
    const got = await readCode(src, readRequests('READ lib/big.js')[0], prompt, 8000);
    assert.strictEqual(got.kind, 'shown');
    const shown = got.kind === 'shown' ? got.text : '';
    const head = /lines (\d+)–(\d+) of 2000: a window of whole lines; lines 1–(\d+) are shown above/.exec(shown);
    assert.ok(head, shown.slice(0, 200));
    const cutAt = text.slice(0, 12_000).split('\n').length - 1;
    assert.strictEqual(Number(head[3]), cutAt, 'the whole lines the prompt held');
    assert.ok(Number(head[1]) <= cutAt + 1 && Number(head[2]) > cutAt + 100, 'the window starts where the prompt stopped');
  });

  it('calls a READ of what the prompt already holds a repeat, and a missing symbol a refusal', async () => {
    fs.writeFileSync(path.join(root, 'lib', 'small.js'), 'module.exports = 1;\n');
    assert.deepStrictEqual(await readCode(src, readRequests('READ lib/small.js')[0], 'x\nmodule.exports = 1;\ny', 8000), { kind: 'repeat', what: 'lib/small.js' });
    const missing = await readCode(src, readRequests('READ lib/big.js#nowhere')[0], '', 8000);
    assert.deepStrictEqual(missing, { kind: 'refused', sentence: 'READ lib/big.js#nowhere was refused: lib/big.js has no `nowhere`; READ lib/big.js shows the file.' });
  });

  it('takes only lines that are nothing but a request', () => {
    assert.deepStrictEqual(readRequests('I will READ the code first.\nREAD src/a.ts#Cart.total\n- READ: "lib/b.py"\nREAD src/a.ts#Cart.total').map((r) => r.asked), ['src/a.ts#Cart.total', 'lib/b.py']);
  });
});

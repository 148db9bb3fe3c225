// Answers built to be slow to read (a naive reader spends minutes on them, which is how long Stop would wait) are
// read correctly: the right blocks, the right refusals, short sentences. Speed itself is measured by
// bench/bounds.bench.ts, never here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEditBlocks } from '../../../../src/core/edits/applyBlocks';
import { cleanPathLine, parseEditBlocks } from '../../../../src/core/edits/parseBlocks';
import { makePathPolicy, normalizeRelPath } from '../../../../src/core/edits/pathPolicy';
import type { PathPolicy } from '../../../../src/core/edits/pathPolicy';
import { iniSections } from '../../../../src/base/iniSections';
import { summarizeHypothesis } from '../../../../src/core/edits/hypothesis';
import { serverMessage } from '../../../../src/actors/httpErrors';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../src/session/protectedGlobs';
import { endlessSentence, openHeader, quotedPath, repeatedLines, slowToReadAnswer, spacedFence } from '../../../support/adversarialAnswers';

const block = (p: string, search: string, replace: string) => `${p}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;

describe('answers built to be slow to read are read correctly', () => {
  let root: string;
  let policy: PathPolicy;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-adversarial-'));
    policy = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

  it('an 800 KB path line is prose, not a path, said in one short sentence; a path under a thousand layers of decoration is still found', () => {
    const r = parseEditBlocks(`${quotedPath(400_000)}\n${block('', 'a\n', 'b\n').slice(1)}`);
    assert.equal(r.blocks.length, 0);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]!, /^Block 1 has no file path line before <<<<<<< SEARCH;/);
    assert.ok(r.errors[0]!.length < 300);
    assert.equal(cleanPathLine(quotedPath(1000)), 'src/calc.js');
    assert.equal(cleanPathLine(`${'**`'.repeat(600)}src/a.ts${'`**'.repeat(600)}:`), 'src/a.ts');
    const decorated = parseEditBlocks(block(quotedPath(2000), 'a\n', 'b\n'));
    assert.deepEqual(decorated.blocks.map((b) => b.path), ['src/calc.js']);
  });

  it('a fence line with 400,000 spaces before its tag is a fence; one ending in a backtick is prose', () => {
    const fenced = parseEditBlocks(`src/a.js\n${spacedFence(400_000, 'js')}\n${block('', 'a\n', 'b\n').slice(1)}${spacedFence(400_000, '')}\n`);
    assert.deepEqual(fenced.errors, []);
    assert.deepEqual(fenced.blocks.map((b) => b.path), ['src/a.js']);
    assert.equal(fenced.prose, '');
    const prose = parseEditBlocks(`${spacedFence(400_000)}\nsrc/a.js\n${block('', 'a\n', 'b\n').slice(1)}`);
    assert.deepEqual(prose.blocks.map((b) => b.path), ['src/a.js']);
    assert.ok(prose.prose.endsWith('js`'), 'the not-a-fence line stays in the prose');
  });

  it('800 KB of prose without a sentence end becomes a hypothesis of at most 600 characters', () => {
    const r = parseEditBlocks(`${endlessSentence(800_000)}\n\n${block('src/a.js', 'a\n', 'b\n')}`);
    const h = summarizeHypothesis(r.prose);
    assert.equal(h.length, 600);
    assert.ok(h.startsWith('The bug is in the arithmetic is in'));
    assert.equal(summarizeHypothesis('Pi is 3.14 here. a.js is wrong! Fix it? Not this.'), 'Pi is 3.14 here. a.js is wrong! Fix it?');
  });

  it('the whole slow-to-read answer parses to its one pathless block, its prose summarized', () => {
    const r = parseEditBlocks(slowToReadAnswer());
    assert.equal(r.blocks.length, 0);
    assert.match(r.errors.join(' '), /^Block 1 has no file path line/);
    assert.ok(summarizeHypothesis(r.prose).length <= 600);
  });

  it('a 20,000-line SEARCH of one repeated line is applied at the one place it matches, exactly or by indentation', async () => {
    write('src/big.js', `${repeatedLines(40_000, '  x();')}  y();\n${repeatedLines(3, '  z();')}`);
    const answer = block('src/big.js', `${repeatedLines(19_999, '  x();')}  y();\n`, '  done();\n');
    const r = parseEditBlocks(answer);
    assert.equal(r.blocks[0]!.search.split('\n').length, 20_001);
    const applied = await applyEditBlocks(root, r.blocks, policy);
    assert.deepEqual(applied, { ok: true, files: ['src/big.js'] });
    assert.equal(read('src/big.js'), `${repeatedLines(20_001, '  x();')}  done();\n${repeatedLines(3, '  z();')}`);
    // The same SEARCH with other indentation matches by its indentation tier, and is re-indented.
    write('src/other.js', `${repeatedLines(40_000, '  x();')}  y();\n`);
    const unindented = block('src/other.js', `${repeatedLines(19_999, 'x();')}y();\n`, 'done();\n');
    assert.deepEqual(await applyEditBlocks(root, parseEditBlocks(unindented).blocks, policy), { ok: true, files: ['src/other.js'] });
    assert.equal(read('src/other.js'), `${repeatedLines(20_001, '  x();')}  done();\n`);
    // Found 20,001 times: refused as ambiguous, naming only the first places.
    write('src/big.js', repeatedLines(40_000, 'x();'));
    const refused = await applyEditBlocks(root, parseEditBlocks(block('src/big.js', repeatedLines(20_000, 'x();'), 'y();\n')).blocks, policy);
    assert.equal(refused.ok, false);
    const reason = (refused as { reason: string }).reason;
    assert.match(reason, /^The SEARCH of block 1 for src\/big\.js was found 20001 times \(lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …\)/);
    assert.ok(reason.length < 500, `${reason.length} characters`);
    assert.equal(read('src/big.js'), repeatedLines(40_000, 'x();'), 'nothing was written');
  });

  it('a 200,000-line file is edited near its end, exactly and without its blank lines', async () => {
    write('src/big.js', `${repeatedLines(100_000, 'x();\n')}last();\n`);
    const exactly = await applyEditBlocks(root, [{ path: 'src/big.js', search: 'last();\n', replace: 'done();\n' }], policy);
    assert.deepEqual(exactly, { ok: true, files: ['src/big.js'] });
    const drift = await applyEditBlocks(root, [{ path: 'src/big.js', search: 'x();\ndone();\n', replace: 'x();\nfinished();\n' }], policy);
    assert.deepEqual(drift, { ok: true, files: ['src/big.js'] });
    assert.equal(read('src/big.js'), `${repeatedLines(100_000, 'x();\n')}finished();\n`);
  });

  it('a SEARCH whose first line is 800 KB is not found, and the quote of it is cut short', async () => {
    write('src/a.js', 'a\n'.repeat(20_000));
    const long = 'a'.repeat(800_000);
    const applied = await applyEditBlocks(root, [{ path: 'src/a.js', search: `${long}\n`, replace: 'b\n' }], policy);
    const reason = (applied as { reason: string }).reason;
    assert.match(reason, /was not found \(no line of the file looks like its first line\)/);
    assert.ok(reason.length < 500, `${reason.length} characters`);
  });

  it('a pyproject.toml whose new header never closes after 800,000 spaces is read as a plain line', async () => {
    write('pyproject.toml', '[tool.pytest.ini_options]\naddopts = "-q"\n');
    assert.deepEqual(iniSections(`${openHeader(800_000)}\nx = 1`).map((s) => s.name), ['']);
    const answer = block('pyproject.toml', 'addopts = "-q"\n', `addopts = "-q"\n${openHeader(800_000)}\n`);
    const applied = await applyEditBlocks(root, parseEditBlocks(answer).blocks, policy);
    assert.equal(applied.ok, false, 'a new line in the pytest section changes what the tests run');
    assert.match((applied as { reason: string }).reason, /changes the \[tool\.pytest…\] section of pyproject\.toml/);
  });

  it('a path of 800 KB is refused in one short sentence', () => {
    const r = normalizeRelPath(`src/${'a'.repeat(800_000)}.js`);
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /^The path "src\/a+…" is 800,007 characters long, more than any file system allows \(4096\)/);
    assert.ok((r as { reason: string }).reason.length < 250);
  });

  it('a path 100 folders deep is created where it says; one 2,000 deep is refused in one short sentence', async () => {
    const deep = `${'d/'.repeat(100)}f.js`;
    const applied = await applyEditBlocks(root, parseEditBlocks(block(deep, '', 'ok\n')).blocks, policy);
    assert.deepEqual(applied, { ok: true, files: [deep] });
    assert.equal(read(deep), 'ok\n');
    const refused = await applyEditBlocks(root, parseEditBlocks(block(`${'d/'.repeat(2000)}f.js`, '', 'ok\n')).blocks, policy);
    assert.equal(refused.ok, false);
    assert.match((refused as { reason: string }).reason, /^Block 1 was refused: d\/d\/[d/]*… is 2,000 folders deep; Greenloop edits files at most 100 folders deep\.$/);
  });

  it('the message of an error body cut after its first 16 KB is still found, in one short line', () => {
    const cut = `{"error":{"type":"server_error","message":"upstream\\nexploded ${'again '.repeat(4000)}`;
    const m = serverMessage(cut.slice(0, 16 * 1024));
    assert.ok(m !== undefined);
    assert.match(m, /^upstream exploded again again/);
    assert.ok(m.length <= 201);
  });
});

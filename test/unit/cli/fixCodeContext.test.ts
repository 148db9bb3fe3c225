// What the model reads of a big file through the real, bundled CLI: the stack trace names line ~1,550 of an 86 KB
// library, and the first prompt shows that whole function (tree-sitter's WASM grammar loaded from dist/), the
// failing test's own body, within --context-tokens; the model's SEARCH block, copied from the shown lines, applies
// and the run goes green; the report says what was shown.
import * as assert from 'assert';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';
import { bigSource } from '../context/bigSource';

const BUG = "    if (args.length > 3) throw new RangeError('parse90 takes at most 4 arguments');";
const TEST = [
  "const { test } = require('node:test');",
  "const assert = require('node:assert');",
  "const { Command } = require('../lib/command');",
  '',
  "test('parse90 takes four arguments', () => {",
  '  assert.equal(new Command().parse90([1, 2, 3, 4]).length, 4);',
  '});',
  '',
  "test('parse1 takes none', () => {",
  '  assert.equal(new Command().parse1([]).length, 0);',
  '});',
  '',
].join('\n');

describe('greenloop fix: the function a stack frame names, deep in an 86 KB file, is in the first prompt (real CLI, real tree-sitter)', function () {
  this.timeout(180_000);
  let h: FixHarness;
  let fn: string;
  beforeEach(async () => {
    h = await fixHarness('calc');
    for (const f of ['src/calc.js', 'test/calc.test.js']) h.write(f, '');
    const big = bigSource();
    const lines = big.text.split('\n');
    lines[big.bugLine - 1] = `${BUG} const limit = 4;`;
    h.write('lib/command.js', lines.join('\n'));
    h.write('test/calc.test.js', TEST);
    h.write('src/calc.js', "'use strict';\n");
    fn = lines.slice(big.fn.start - 1, big.fn.end).join('\n');
  });
  afterEach(async () => {
    await h.close();
  });

  it('shows the whole function and the failing test\'s body, applies a SEARCH copied from it, and reports the context', async () => {
    const fix = edit('lib/command.js', `${BUG} const limit = 4;`, "    if (args.length > 4) throw new RangeError('parse90 takes at most 4 arguments'); const limit = 4;", 'parse90 refuses its fourth argument.');
    const res = await h.fix([answer(fix)]);
    assert.strictEqual(res.code, 0, res.stderr);
    const prompt = h.prompt(0);
    assert.ok(prompt.includes(`\`\`\`\n${fn}\n\`\`\``), 'the whole parse90, as on disk');
    assert.ok(!prompt.includes('const limit = 0;'), 'not the head of the file');
    assert.match(prompt, /^test\/calc\.test\.js \(protected test file: read only; 11 lines; shown: 1-3, 5-7 parse90 takes four arguments\)$/m);
    assert.ok(!prompt.includes('parse1 takes none'), 'not the other test');
    const context = res.report.iterations[0].context;
    assert.deepStrictEqual({ ...context, tokens: undefined }, { regions: 4, files: 2, tokens: undefined, left: [] });
    assert.ok(context.tokens > 100 && context.tokens <= 6000, String(context.tokens));
    assert.strictEqual(res.report.outcome, 'green');
  });

  it('--context-tokens bounds the code shown; a bad value is one sentence', async () => {
    const res = await h.fix([answer('I cannot tell.')], ['--context-tokens', '500', '--max-iterations', '1']);
    const context = res.report.iterations[0].context;
    assert.ok(context.tokens <= 500, JSON.stringify(context));
    assert.ok(h.prompt(0).includes(BUG), 'the best-ranked function still fits');
    const bad = await h.fix([], ['--context-tokens', 'lots']);
    assert.strictEqual(bad.code, 2);
    assert.match(bad.stderr, /--context-tokens/);
  });

  it('Python: an assertion in the test, the bug in a 1,600-line module it imports: the function the test calls is shown whole', async () => {
    for (const f of ['lib/command.js', 'test/calc.test.js', 'src/calc.js', 'package.json']) h.write(f, '');
    const fns = Array.from({ length: 200 }, (_, i) => [`def total_${i}(items):`, '    """Sum of the first items."""', `    limit = ${i === 150 ? 2 : i}`, '    return sum(items[:limit])', '', ''].join('\n'));
    h.write('app/__init__.py', '');
    h.write('app/ledger.py', `import math\n\n\n${fns.join('')}`);
    h.write('tests/test_ledger.py', 'from app.ledger import total_150\n\n\ndef test_total():\n    assert total_150([1, 2, 3]) == 6\n');
    const fix = edit('app/ledger.py', 'def total_150(items):\n    """Sum of the first items."""\n    limit = 2', 'def total_150(items):\n    """Sum of the first items."""\n    limit = 150', 'The limit is wrong.');
    const res = await h.fix([answer(fix)], ['--test-cmd', 'python3 -m pytest -q -p no:cacheprovider tests']);
    assert.strictEqual(res.code, 0, res.stderr);
    const prompt = h.prompt(0);
    assert.match(prompt, /```\ndef total_150\(items\):\n    """Sum of the first items."""\n    limit = 2\n    return sum\(items\[:limit\]\)\n```/);
    assert.ok(!prompt.includes('limit = 0\n'), 'not the head of the module');
    assert.match(prompt, /^tests\/test_ledger\.py \(protected test file: read only; 5 lines; shown: 1-1, 4-5 test_total\)$/m, 'the failing test, by pytest\'s line');
    assert.strictEqual(res.report.outcome, 'green');
  });
});

// Edits that disarm the checks instead of fixing the code are refused by what they add, in any file.
import * as assert from 'node:assert/strict';
import { addedLines, tamperReason } from '../../../../src/core/edits/tamperCheck';

const check = (added: string, context = added) => tamperReason('src/calc.js', added, context);

describe('tamperReason', () => {
  const disarming: Array<[string, string, string?]> = [
    ['an assertion replaced through its module', "require('assert').strictEqual = () => {};"],
    ['node:assert/strict through a require chain', "require('node:assert/strict').deepEqual = function () {};"],
    ['an alias of assert', 'A.equal = () => {};', "const A = require('node:assert/strict');\nA.equal = () => {};"],
    ['a destructured alias', 'eq.x = 1;', "const { strictEqual: eq } = require('assert');\neq.x = 1;"],
    ['an imported alias', 'chk.ok = () => true;', "import * as chk from 'node:assert';\nchk.ok = () => true;"],
    ['expect itself', 'expect.prototype.toBe = () => undefined;'],
    ['Object.assign over assert', 'Object.assign(assert, { equal() {} });'],
    ['the module loader', "Module._load = (req) => ({});"],
    ['the require cache', "require.cache[require.resolve('./x')] = { exports: {} };"],
    ['process.exit', 'process.exit = () => {};'],
    ["unittest's assertions", 'unittest.TestCase.assertEqual = lambda *a: None'],
    ['pytest', 'pytest.approx = lambda x: x'],
  ];
  for (const [what, added, context] of disarming) {
    it(`refuses ${what}`, () => assert.match(check(added, context) ?? '', /^src\/calc\.js: the edit .* which would make tests pass without the code being right/));
  }

  const ordinary = [
    "const assert = require('node:assert');",
    'if (assert.equal === undefined) throw new Error();',
    'options.expect.timeout = 5;',
    'const expected = a + b;',
    'this.assertions = [];',
    'result.exitCode = 1;',
    'expect.extend(matchers);',
    "const { strictEqual } = require('assert');\nif (strictEqual(a, b)) {}",
  ];
  for (const line of ordinary) {
    it(`lets ordinary code through: ${line.split('\n')[0]}`, () => assert.equal(check(line), null));
  }

  it('looks only at the lines an edit adds', () => {
    const before = "const A = require('assert');\nA.equal = () => {};\n";
    assert.equal(addedLines(before, `${before}const x = 1;\n`).trim(), 'const x = 1;');
  });
});

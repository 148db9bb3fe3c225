// Issue 11 item 7 (part): what the Testing view and the Problems view show of a run's witness.
import * as assert from 'assert';
import { expectedActual, fileItemId, focusForSelection, locate, problemsByFile, testEntries } from '../../../../src/extension/testing/testingModel';
import type { TestEntry } from '../../../../src/extension/testing/testingModel';
import type { WitnessSummary } from '../../../../src/ports/runState';

function witness(over: Partial<WitnessSummary>): WitnessSummary {
  return { failing: [], failures: [], diagnostics: [], loadError: false, green: false, signature: 's', exitCode: 1, timedOut: false, outputExcerpt: '', ...over };
}

describe('Testing view model', () => {
  const baseline = witness({
    failing: ['Cart > tax', 'Cart > total', 'Money > pads cents'],
    failures: [{ id: 'Cart > total', file: 'test/cart.test.ts', message: 'boom' }],
    ran: ['Cart > tax', 'Cart > total', 'Money > pads cents'],
  });
  const current = witness({
    failing: ['Cart > tax'],
    failures: [{ id: 'Cart > tax', file: 'test/cart.test.ts', message: "AssertionError: expected 12 to equal 13\n    at Context.<anonymous> (test/cart.test.ts:42:12)" }],
    ran: ['Cart > tax', 'Cart > total'],
    diagnostics: [{ file: 'src/money.ts', line: 3, column: 7, code: 'TS2322', message: "Type 'string' is not assignable to type 'number'." }],
  });

  it('lists each failing test with its message and the file:line the runner printed', () => {
    const [tax] = testEntries({ baseline: { witness: baseline }, current: { witness: current } });
    assert.deepStrictEqual({ ...tax, message: tax.message?.split('\n')[0] }, { id: 'Cart > tax', label: 'tax', file: 'test/cart.test.ts', line: 42, state: 'failed', message: 'AssertionError: expected 12 to equal 13' });
  });

  it('marks a test that went green during the run as passed, and not one that merely stopped being reported', () => {
    const entries = testEntries({ baseline: { witness: baseline }, current: { witness: current } });
    assert.deepStrictEqual(entries.filter((e) => e.state === 'passed').map((e) => [e.id, e.file]), [['Cart > total', 'test/cart.test.ts']]);
    assert.ok(!entries.some((e) => e.id === 'Money > pads cents'), 'absent from the output is not passing');
  });

  // Issue 22 item 7: a first test run that hung (or could not be read) is no result to show as tests.
  it('lists nothing when the tests gave no usable result, not the tests a hung first run named', () => {
    const hung = witness({ failing: ['Cart > tax'], failures: [{ id: 'Cart > tax', message: 'cut off' }], timedOut: true, unmeasured: true });
    assert.deepStrictEqual(testEntries({ baseline: { witness: hung }, current: { witness: hung } }), []);
  });

  it('shows a test file that did not load as errored under its file, never as a failing test, and never as a focus', () => {
    const notLoaded = witness({
      failing: ['Cart > tax'], failures: current.failures, loadError: true, loadErrorFiles: ['test/ledger.test.js'],
      loadErrors: [{ file: 'test/ledger.test.js', message: "SyntaxError: Unexpected end of input\n    at src/ledger.js:8" }],
    });
    const entries = testEntries({ baseline: { witness: baseline }, current: { witness: notLoaded } });
    const ledger = entries.find((e) => e.file === 'test/ledger.test.js');
    assert.deepStrictEqual(ledger, { id: 'test/ledger.test.js', label: 'did not load', file: 'test/ledger.test.js', state: 'errored', message: 'SyntaxError: Unexpected end of input\n    at src/ledger.js:8' });
    assert.deepStrictEqual(entries.filter((e) => e.state === 'failed').map((e) => e.id), ['Cart > tax']);
    assert.deepStrictEqual(focusForSelection([fileItemId('test/ledger.test.js'), 'test/ledger.test.js'], entries), []);
  });

  it('finds a location in output without a named file, and none when there is none', () => {
    assert.deepStrictEqual(locate(undefined, 'at Object.<anonymous> (./src/money.test.js:9:3)'), { file: 'src/money.test.js', line: 9 });
    assert.deepStrictEqual(locate('test/a.test.ts', 'expected 1 to equal 2'), { file: 'test/a.test.ts' });
  });

  it('finds expected and actual values where the runner printed both, for the Test Results diff', () => {
    // node --test (the calc fixture's real failure message, as the verifier reads it)
    const node = 'AssertionError: Expected values to be strictly equal:\n\n-1 !== 5\nTestContext.<anonymous> (/tmp/calcx/test/calc.test.js:7:27)';
    assert.deepStrictEqual(expectedActual(node), { expected: '5', actual: '-1' });
    // jest (test/fixtures/captured/jest/default-mixed-color.txt, colours stripped as the parser does)
    const jest = 'expect(received).toBe(expected) // Object.is equality\n\n    Expected: "1.0"\n    Received: "0.9"\n\n      at Object.toBe (src/format.test.js:5:27)';
    assert.deepStrictEqual(expectedActual(jest), { expected: '"1.0"', actual: '"0.9"' });
    assert.deepStrictEqual(expectedActual('AssertionError: expected -1 to equal 5'), { expected: '5', actual: '-1' });
    assert.strictEqual(expectedActual('TypeError: Cannot read properties of undefined (reading \'total\')'), null);
    assert.strictEqual(expectedActual('Expected: 5 but nothing about what came'), null);
  });

  it('groups type errors by file for the Problems view', () => {
    assert.deepStrictEqual([...problemsByFile(current)], [['src/money.ts', [{ line: 3, column: 7, code: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", source: 'tsc' }]]]);
  });

  describe('"Fix until green" on selected items: the focus of the loop', () => {
    const entries: TestEntry[] = [
      { id: 'Cart > tax', label: 'tax', file: 'test/cart.test.ts', state: 'failed' },
      { id: 'Cart > total', label: 'total', file: 'test/cart.test.ts', state: 'passed' },
      { id: 'Cart > discount', label: 'discount', file: 'test/cart.test.ts', state: 'failed' },
      { id: 'Money > pads cents', label: 'pads cents', file: 'test/money.test.ts', state: 'failed' },
      { id: 'loose', label: 'loose', state: 'failed' },
    ];

    it('a failing test item is its test; a file item every test failing in that file; a passing test nothing', () => {
      assert.deepStrictEqual(focusForSelection(['Money > pads cents'], entries), ['Money > pads cents']);
      assert.deepStrictEqual(focusForSelection([fileItemId('test/cart.test.ts')], entries), ['Cart > tax', 'Cart > discount']);
      assert.deepStrictEqual(focusForSelection(['Cart > total', 'loose', 'Cart > tax', fileItemId('test/cart.test.ts')], entries), ['loose', 'Cart > tax', 'Cart > discount']);
      assert.deepStrictEqual(focusForSelection(['Cart > total'], entries), []);
    });

    it('no selection (the whole tree) is no focus: the whole suite', () => {
      assert.deepStrictEqual(focusForSelection([], entries), []);
    });
  });
});

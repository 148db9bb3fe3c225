// The diagnostic half of the judge: what a checker checked cannot shrink, a checker that cannot say is never
// progress, and a diagnostic is told apart by its source.
import * as assert from 'assert';
import { judge } from '../../../../src/core/judge/witnessCompare';
import { missingChecked, writtenOutsideCheckers } from '../../../../src/core/judge/checkedFiles';
import { diagnosticKey } from '../../../../src/core/judge/diagnosticKey';
import type { WitnessSummary } from '../../../../src/ports/runState';
import type { Diagnostic } from '../../../../src/ports/verifier';

function w(more: Partial<WitnessSummary> = {}): WitnessSummary {
  return {
    failing: [], failures: [], diagnostics: [], loadError: false, green: false, signature: '', exitCode: 0, timedOut: false, outputExcerpt: '',
    ran: ['t'], skipped: [], ranCount: 1, executed: 1, warnings: [], ...more,
  };
}
const err = (file: string, source?: string): Diagnostic => ({ file, line: 2, column: 1, code: 'E1', message: 'bad', ...(source ? { source } : {}) });

describe('judge: what the checkers checked', () => {
  it('a file tsc checked and no longer checks is missing: a regression even when every error is gone and the tests pass', () => {
    const best = w({ diagnostics: [err('src/format.js', 'tsc')], checked: { tsc: ['src/format.js', 'src/money.js'] } });
    const next = w({ green: true, checked: { tsc: ['src/money.js'] } });
    const j = judge(best, next);
    assert.strictEqual(j.verdict, 'regression');
    assert.deepStrictEqual(j.missing, ['tsc no longer checks src/format.js']);
    assert.match(j.note, /files that were checked no longer are: `tsc no longer checks src\/format\.js`/);
  });

  it('a checker that checks fewer files by its own count is missing those files; more files is fine', () => {
    assert.deepStrictEqual(missingChecked({ checkedCounts: { 'mypy app': 3 } }, { checkedCounts: { 'mypy app': 2 } }), ['mypy app checked 3 files before and 2 now']);
    assert.deepStrictEqual(missingChecked({ checkedCounts: { 'mypy app': 3 } }, { checkedCounts: { 'mypy app': 4 } }), []);
    assert.deepStrictEqual(missingChecked({ checked: { tsc: ['a.ts'] } }, { checked: { tsc: ['a.ts', 'b.ts'] } }), []);
  });

  it('a checker that could not say (crashed, not installed) is a regression, never progress, however many errors vanished with it', () => {
    const best = w({ diagnostics: [err('a.c', 'gcc'), err('b.c', 'gcc')] });
    const j = judge(best, w({ checkFailures: ['The check command `gcc a.c` exited with code 4 without a report.'] }));
    assert.strictEqual(j.verdict, 'regression');
    assert.match(j.note, /a checker could not say: The check command `gcc a\.c`/);
  });

  it('runs saved before checkers (no `checked`) judge as before', () => {
    assert.strictEqual(judge(w({ diagnostics: [err('a.ts')] }), w({ green: true })).verdict, 'green');
  });

  it('the same message from two checkers is two diagnostics; one without a source is the tsc one of an older run', () => {
    assert.notStrictEqual(diagnosticKey(err('a.py', 'mypy')), diagnosticKey(err('a.py', 'pyright')));
    assert.strictEqual(diagnosticKey(err('a.ts')), diagnosticKey(err('a.ts', 'tsc')));
    const j = judge(w({ diagnostics: [err('a.py', 'mypy')] }), w({ diagnostics: [err('a.py', 'pyright')] }));
    assert.strictEqual(j.verdict, 'regression', 'a new pyright error is not the old mypy one');
  });
});

describe('writtenOutsideCheckers (the loop passes the files an attempt created)', () => {
  it('names a file the edit created that the checker does not check while it checks files of its language', () => {
    const best = { checked: { tsc: ['src/format.ts', 'src/money.ts'] } };
    const next = { checked: { tsc: ['src/format.ts', 'src/money.ts'] } };
    assert.deepStrictEqual(writtenOutsideCheckers(['src/format.ts', 'scripts/format.ts', 'README.md'], best, next), ['tsc does not check scripts/format.ts, which the edit created']);
    assert.deepStrictEqual(writtenOutsideCheckers(['src/money.ts'], best, next), []);
    // Through the judge, once the loop passes the attempt's files: the errors gone with the code are not progress.
    const j = judge(w({ diagnostics: [err('src/format.ts', 'tsc')], ...best }), w({ green: true, ...next }), { written: ['src/format.ts', 'lib/format.ts'] });
    assert.strictEqual(j.verdict, 'regression');
    assert.match(j.note, /tsc does not check lib\/format\.ts, which the edit created/);
  });

  it('a new .js file misses a checker of .ts files as much as a new .ts file does; .d.ts and other languages do not', () => {
    const best = { checked: { tsc: ['src/money.ts'] } };
    const next = { checked: { tsc: ['src/money.ts'] } };
    assert.deepStrictEqual(writtenOutsideCheckers(['src/money-impl.js', 'src/types.d.ts', 'tools/gen.py', 'notes.md'], best, next), ['tsc does not check src/money-impl.js, which the edit created']);
    const py = { checked: { mypy: ['app/prices.py'] } };
    assert.deepStrictEqual(writtenOutsideCheckers(['app/_impl.py', 'app/prices.py'], py, py), ['mypy does not check app/_impl.py, which the edit created']);
  });
});

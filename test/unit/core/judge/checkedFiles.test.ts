// The diagnostic half of the judge: what a checker checked cannot shrink, a checker that cannot say is never
// progress, and a diagnostic is told apart by its source.
import * as assert from 'assert';
import { judge } from '../../../../src/core/judge/witnessCompare';
import { greenWords } from '../../../../src/core/judge/cleanWords';
import { fileChange, missingChecked, movedOutOfReach } from '../../../../src/core/judge/checkedFiles';
import type { FileChange } from '../../../../src/core/judge/checkedFiles';
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

describe('movedOutOfReach (the loop passes what the attempt did to the files it wrote)', () => {
  const FORMAT = 'export function format(n: number): string {\n  const cents: number = n.toFixed(2);\n  return String(cents);\n}\n';
  const FORWARD = "import { format } from '../lib/format';\nexport { format };\n";
  const change = (file: string, before: string | null, after: string | null): FileChange => fileChange(file, before, after);
  const tsc = (files: string[]) => ({ checked: { tsc: files }, checkers: { tsc: { sources: ['tsc'], extensions: ['.ts', '.js'] } } });

  it('code emptied out of a checked file into a new file the checker does not check: named, and a regression through the judge', () => {
    const best = tsc(['src/format.ts', 'src/money.ts']);
    const moves = [change('src/format.ts', FORMAT, FORWARD), change('lib/format.ts', null, FORMAT)];
    assert.deepEqual(movedOutOfReach(moves, best, best), ['tsc does not check lib/format.ts, which the edit created']);
    const j = judge(w({ diagnostics: [err('src/format.ts', 'tsc')], ...best }), w({ green: true, ...best }), { written: moves });
    assert.strictEqual(j.verdict, 'regression');
    assert.match(j.note, /tsc does not check lib\/format\.ts, which the edit created/);
    // A new .js file misses a checker of .ts files as much as a new .ts one; a .d.ts is no code.
    assert.deepEqual(movedOutOfReach([moves[0], change('src/format-impl.js', null, FORMAT)], best, best), ['tsc does not check src/format-impl.js, which the edit created']);
    assert.deepEqual(movedOutOfReach([moves[0], change('src/types.d.ts', null, FORMAT)], best, best), []);
  });

  it('into a file that already existed unchecked and grew: named too', () => {
    const best = tsc(['src/format.ts']);
    const script = "console.log('report');\n";
    assert.deepEqual(movedOutOfReach([change('src/format.ts', FORMAT, FORWARD), change('scripts/format.ts', script, `${script}${FORMAT}`)], best, best),
      ['tsc does not check scripts/format.ts, where the edit moved code']);
  });

  it('code rewritten on the way out still left: the checked files lost more code than they gained', () => {
    const best = tsc(['src/format.ts']);
    const rewritten = 'export function format(value: number) {\n  return value.toFixed(2);\n}\n';
    assert.deepEqual(movedOutOfReach([change('src/format.ts', FORMAT, FORWARD), change('lib/format.ts', null, rewritten)], best, best), ['tsc does not check lib/format.ts, which the edit created']);
  });

  it('not a move: a new or edited unchecked file while the checked code was only fixed, a file moved within reach, a new file the checker checks', () => {
    const best = tsc(['src/format.ts', 'src/money.ts']);
    const fixed = change('src/format.ts', FORMAT, FORMAT.replace('const cents: number', 'const cents: string'));
    assert.deepEqual(movedOutOfReach([fixed, change('scripts/release.ts', null, "console.log('release');\n")], best, best), []);
    assert.deepEqual(movedOutOfReach([fixed, change('scripts/report.ts', "console.log('report');\n", "console.log('price report');\n")], best, best), []);
    const renamed = { checked: { tsc: ['src/money.ts', 'src/money/format.ts'] }, checkers: best.checkers };
    assert.deepEqual(movedOutOfReach([change('src/format.ts', FORMAT, null), change('src/money/format.ts', null, FORMAT)], best, renamed), []);
    // A shared import line is no moved code.
    const imports = change('src/money.ts', "import { a } from './a';\nexport const m = a;\n", 'export const m = 1;\n');
    assert.deepEqual(movedOutOfReach([imports, change('tools/x.ts', null, "import { a } from './a';\nconsole.log(1);\n")], best, best), []);
    // Files of a language the checker does not read.
    assert.deepEqual(movedOutOfReach([change('src/format.ts', FORMAT, FORWARD), change('tools/format.py', null, FORMAT)], best, best), []);
  });

  it('a checker that says only how many files it analysed (pyright): a new file its count did not grow by is out of reach', () => {
    const MEAN = 'def mean(xs: list[int]) -> int:\n    return sum(xs) / len(xs)\n';
    const key = 'pyright --outputjson';
    const reach = (n: number) => ({ checkedCounts: { [key]: n }, checkers: { [key]: { sources: ['pyright'], extensions: ['.py', '.pyi'] } } });
    const moves = [change('shop/stats.py', MEAN, 'from legacy.stats import mean\n\n__all__ = ["mean"]\n'), change('legacy/stats.py', null, MEAN)];
    assert.deepEqual(movedOutOfReach(moves, reach(2), reach(2)), [`${key} does not check legacy/stats.py, which the edit created (it checked 2 files before and 2 now)`]);
    // Analysed: the count grew with it.
    assert.deepEqual(movedOutOfReach(moves, reach(2), reach(3)), []);
    // A file moved whole within reach: one deleted, one created, the count unchanged.
    assert.deepEqual(movedOutOfReach([change('shop/stats.py', MEAN, null), change('shop/mean.py', null, MEAN)], reach(2), reach(2)), []);
    const j = judge(w({ diagnostics: [err('shop/stats.py', 'pyright')], ...reach(2) }), w({ green: true, ...reach(2) }), { written: moves });
    assert.strictEqual(j.verdict, 'regression');
  });

  it('cargo with no whole list now (its build failed) is judged by its errors, not by missing files', () => {
    const best = { checked: { 'cargo clippy': ['src/lib.rs', 'src/util.rs'] } };
    assert.deepEqual(missingChecked(best, {}), []);
    assert.deepEqual(missingChecked(best, { checked: { 'cargo clippy': ['src/lib.rs'] } }), ['cargo clippy no longer checks src/util.rs']);
  });

  it('fileChange: the non-blank lines gained and lost, a line moved within the file neither', () => {
    const c = fileChange('a.py', 'a = 1\n\nb = 2\nc = 3\n', 'b = 2\na = 1\n    d = 4\n');
    assert.deepEqual([c.created, c.deleted, c.added, c.removed], [false, false, ['d = 4'], ['c = 3']]);
    assert.deepEqual([fileChange('n.py', null, 'x\n').created, fileChange('n.py', 'x\n', null).deleted], [true, true]);
  });
});

describe('greenWords: a green note names only the checkers that ran', () => {
  const id = (source: string, ext: string) => ({ sources: [source], extensions: [ext] });
  it('no word of a type check with tsc off; the type check when it ran; each check by its name', () => {
    assert.strictEqual(greenWords({}), 'all tests pass');
    assert.strictEqual(greenWords({ checked: { tsc: ['a.ts'] } }), 'all tests pass and the type check is clean');
    assert.strictEqual(greenWords({ checkedCounts: { 'pyright --outputjson': 2 }, checkers: { 'pyright --outputjson': id('pyright', '.py') } }), 'all tests pass and pyright reports no error');
    const both = { checked: { tsc: ['a.ts'], 'eslint -f json .': ['a.ts'] }, checkers: { tsc: id('tsc', '.ts'), 'eslint -f json .': id('eslint', '.js'), 'cargo clippy': { sources: ['clippy', 'rustc'], extensions: ['.rs'] } } };
    assert.strictEqual(greenWords(both), 'all tests pass, the type check is clean and ESLint and clippy report no error');
    // Through the judge: a green state under --tsc off says nothing of a type check.
    assert.strictEqual(judge(w({ failing: ['t'] }), w({ green: true })).note, 'all tests pass');
  });
});

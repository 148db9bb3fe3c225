// The failure's words as a query: identifiers split at camelCase and snake_case, BM25 with a function's name counting
// most, a name the failure spells out first; and reciprocal-rank fusion with the spectrum's lines.
import * as assert from 'assert';
import { rankByWords, words } from '../../../src/context/rank/lexical';
import { fuseHints } from '../../../src/core/prompt/fuseHints';
import type { CodeHint } from '../../../src/ports/codeContext';

describe("the failure's own words", () => {
  it('splits identifiers at camelCase, acronyms and snake_case, without the words every failure says', () => {
    assert.deepStrictEqual(words('readBlockScalar between_sql parseHTTPHeader AssertionError expected'), ['read', 'block', 'scalar', 'between', 'sql', 'parse', 'http', 'header']);
  });

  it('ranks the function whose name the failure says first, then by shared words; one shared word is no match', () => {
    const unit = (name: string, text: string, line: number) => ({ path: 'gen.py', line, endLine: line + 2, name, text });
    const units = [
      unit('Generator.select_sql', 'def select_sql(self, e):\n    return "SELECT " + e', 1),
      unit('Generator.between_sql', 'def between_sql(self, e):\n    symmetric = "SYMMETRIC" in e', 5),
      unit('Generator.datediff_sql', 'def datediff_sql(self, e):\n    unit = quarter_of(e)', 9),
      unit('Generator.window_sql', 'def window_sql(self, e):\n    return e', 13),
    ];
    const byWords = rankByWords(units, "test_between_symmetric\nassert 'BETWEEN 1 AND 2' == 'BETWEEN SYMMETRIC 1 AND 2'", 5);
    assert.deepStrictEqual(byWords.map((h) => h.name), ['Generator.between_sql']);
    assert.strictEqual(byWords[0].named, false);
    const named = rankByWords(units, 'DATEDIFF(quarter, a, b): datediff_sql gave the wrong unit quarter', 5);
    assert.strictEqual(named[0].name, 'Generator.datediff_sql');
    assert.ok(named[0].named && named[0].score === 1);
  });

  it('fusion: a suspicious line inside the function the words point to ranks above either alone; one list alone keeps its order', () => {
    const cov = (line: number, score: number): CodeHint => ({ path: 'a.js', line, score, source: 'coverage' });
    const lines = [cov(3, 1), cov(20, 0.9), cov(40, 0.5)];
    const fused = fuseHints(lines, [{ path: 'a.js', line: 18, endLine: 25, name: 'f', score: 1, named: false }]);
    const at = (line: number) => fused.find((h) => h.line === line)!.score;
    assert.ok(at(20) > at(3), 'line 20 is in the function the words point to');
    assert.ok(at(18) > at(40));
    assert.ok(fused.every((h) => h.score > 45 && h.score <= 85));
    const alone = fuseHints(lines, []);
    assert.deepStrictEqual(alone.map((h) => h.line), [3, 20, 40]);
    assert.strictEqual(alone[0].score, 85, 'the most suspicious line alone scores as Ochiai 1 did');
  });
});

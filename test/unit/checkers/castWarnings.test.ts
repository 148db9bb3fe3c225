// Casts added on the line of a baseline diagnostic are named for the person; other casts are left alone.
import { strict as assert } from 'assert';
import { castWarnings } from '../../../src/core/edits/castWarnings';

const TS = 'export function cents(n: number): string {\n  const c: number = n.toFixed(2);\n  return String(c);\n}\n';
const TS2322 = { line: 2, code: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", source: 'tsc' };

describe('cast warnings', () => {
  it('`as any` on the line of a baseline error is named with the error, even after lines above moved', () => {
    const after = `// money helpers\n${TS.replace('n.toFixed(2);', 'n.toFixed(2) as any;')}`;
    const w = castWarnings('src/money.ts', TS, after, [TS2322]);
    assert.equal(w.length, 1);
    assert.equal(w[0].line, 3);
    assert.equal(w[0].cast, 'as any');
    assert.equal(w[0].sentence,
      `src/money.ts:3: the edit adds \`as any\` on the line where tsc TS2322 "Type 'string' is not assignable to type 'number'." was reported; check that the cast is right and does not just hide the error.`);
  });

  it('`as unknown as T` and `<any>` too', () => {
    assert.equal(castWarnings('a.ts', TS, TS.replace('n.toFixed(2);', 'n.toFixed(2) as unknown as number;'), [TS2322])[0].cast, 'as unknown as number');
    assert.equal(castWarnings('a.ts', TS, TS.replace('n.toFixed(2);', '<any>n.toFixed(2);'), [TS2322])[0].cast, '<any>');
  });

  it('Python cast(Any, …) in either spelling', () => {
    const before = 'def f(n: float) -> int:\n    total: int = str(n)\n    return total\n';
    const d = [{ line: 2, code: 'assignment', message: 'Incompatible types in assignment' }];
    for (const spelled of ['cast(Any, str(n))', 'typing.cast("Any", str(n))']) {
      const w = castWarnings('m.py', before, before.replace('str(n)\n', `${spelled}\n`), d);
      assert.equal(w.length, 1, spelled);
      assert.equal(w[0].line, 2);
    }
    // A cast to a real type names what the value is: not this warning.
    assert.deepEqual(castWarnings('m.py', before, before.replace('str(n)\n', 'cast("Money", str(n))\n'), d), []);
  });

  it('no warning for a cast away from any baseline diagnostic, one already there, in a string, or with no baseline', () => {
    assert.deepEqual(castWarnings('a.ts', TS, TS.replace('String(c)', 'String(c as any)'), [TS2322]), []);
    const had = TS.replace('n.toFixed(2);', 'n.toFixed(2) as any;');
    assert.deepEqual(castWarnings('a.ts', had, had.replace('const c', 'let c'), [TS2322]), []);
    assert.deepEqual(castWarnings('a.ts', TS, TS.replace('n.toFixed(2);', 'n.toFixed(2); // was "x as any"'), [TS2322]), []);
    assert.deepEqual(castWarnings('a.ts', TS, TS.replace('n.toFixed(2);', 'n.toFixed(2) as any;'), []), []);
    assert.deepEqual(castWarnings('a.ts', null, TS.replace('n.toFixed(2);', 'n.toFixed(2) as any;'), [TS2322]), []);
  });
});

// bench:context's mutation generator: each operator changes the node it names into code that still parses, in every
// language the bench draws from, and the draw is the same for the same seed.
import { strict as assert } from 'node:assert';
import { applySite, draw, functionsOf, grammarOf, sitesOf, withRoot, type Operator, type Site } from '../../../bench/context/mutate';

const SAMPLES: Record<string, string> = {
  'a.js': 'function f(a, b) {\n  if (a < b) { g(a, b); }\n  return a + 1 && b;\n}\n',
  'a.ts': 'export function f(a: number, b: number): boolean {\n  if (a < b) { g(a, b); }\n  return a + 1 > 0 || b === 3;\n}\n',
  'a.py': 'def f(a, b):\n    if a < b and b:\n        g(a, b)\n    return a + 1\n',
  'a.go': 'package x\n\nfunc f(a, b int) bool {\n\tif a < b {\n\t\tg(a, b)\n\t}\n\treturn a+1 > 0 && b != 2\n}\n',
  'a.rs': 'fn f(a: i32, b: i32) -> bool {\n    if a < b { g(a, b); }\n    a + 1 > 0 || b == 2\n}\n',
  'A.java': 'class A {\n  boolean f(int a, int b) {\n    if (a < b) { g(a, b); }\n    return a + 1 > 0 && b != 2;\n  }\n}\n',
  'a.c': 'int f(int a, int b) {\n  if (a < b) { g(a, b); }\n  return a + 1 > 0 || b == 2;\n}\n',
  'a.rb': 'def f(a, b)\n  if a < b && b\n    g(a, b)\n  end\n  a + 1 > 0\nend\n',
};

/** Every operator the sample holds, with what it turns which text into. */
const EXPECTED: [Operator, string, string][] = [
  ['flipped comparison', '<', '>='],
  ['off-by-one in a bound', '<', '<='],
  ['wrong arithmetic operator', '+', '-'],
  ['constant ± 1', '1', '2'],
  ['constant ± 1', '1', '0'],
  ['swapped argument', 'a, b', 'b, a'],
];

const hasError = (g: NonNullable<ReturnType<typeof grammarOf>>, text: string) => withRoot(g, text, (root) => root.hasError);

describe('bench:context mutation generator', () => {
  for (const [file, text] of Object.entries(SAMPLES)) {
    it(`${file}: every operator changes the intended node into code that parses`, async () => {
      const g = grammarOf(file)!;
      assert.equal(await hasError(g, text), false, 'the sample itself parses');
      const sites = await sitesOf(file, text, g);
      const lines = text.split('\n');
      for (const [op, from, to] of EXPECTED) assert.ok(sites.some((s) => s.operator === op && s.original === from && s.replacement === to), `${op}: ${from} → ${to} in ${JSON.stringify(sites.map((s) => [s.operator, s.original, s.replacement]))}`);
      for (const op of ['negated condition', 'removed call', 'wrong logical operator'] as Operator[]) assert.ok(sites.some((s) => s.operator === op), `${op} is offered`);
      for (const s of sites) {
        // The site covers exactly its node's text on its line, and the mutated file still parses.
        assert.equal(lines[s.line - 1].slice(s.from, s.to), s.original);
        const mutated = lines.map((l, i) => (i === s.line - 1 ? applySite(l, s) : l)).join('\n');
        assert.notEqual(mutated, text);
        assert.equal(await hasError(g, mutated), false, `${s.operator} ${s.original} → ${s.replacement} on line ${s.line} parses:\n${mutated}`);
      }
    });
  }

  it('negates the condition, not the statement, and keeps a parenthesized condition parenthesized', async () => {
    const js = await sitesOf('a.js', SAMPLES['a.js'], 'javascript');
    assert.deepEqual(js.filter((s) => s.operator === 'negated condition').map((s) => [s.original, s.replacement]), [['(a < b)', '(!(a < b))']]);
    const py = await sitesOf('a.py', SAMPLES['a.py'], 'python');
    assert.deepEqual(py.filter((s) => s.operator === 'negated condition').map((s) => [s.original, s.replacement]), [['a < b and b', 'not (a < b and b)']]);
    assert.deepEqual(py.filter((s) => s.operator === 'removed call').map((s) => [s.line, s.original, s.replacement]), [[3, 'g(a, b)', 'pass']]);
  });

  it('leaves strings and comments alone', async () => {
    const text = 'function f(a) {\n  // a < 1\n  return "x < 2" + a;\n}\n';
    const sites = await sitesOf('a.js', text, 'javascript');
    assert.ok(sites.every((s) => s.line === 3 && s.from >= text.split('\n')[2].indexOf('+')), JSON.stringify(sites));
  });

  it('draws the same mutants for the same seed, others for another, each site at most once', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `function f${i}(a, b) {\n  if (a < ${i}) { return g(a, b) + ${i + 1}; }\n  return a * b;\n}`).join('\n');
    const fns = await functionsOf('m.js', text, 'javascript');
    const sites = await sitesOf('m.js', text, 'javascript');
    const texts = new Map([['m.js', text.split('\n')]]);
    const take = (seed: number) => [...draw(fns, sites, texts, seed)].map((m) => `${m.line}:${m.from}:${m.replacement}`);
    const a = take(40);
    assert.deepEqual(take(40), a);
    assert.notDeepEqual(take(41), a);
    assert.equal(new Set(a).size, a.length);
    assert.equal(a.length, sites.length, 'every site of a function is drawn once the draw runs to its end');
    // Uniform over functions first: the first twelve draws do not all come from one function.
    assert.ok(new Set([...draw(fns, sites, texts, 40)].slice(0, 12).map((m) => m.fn)).size > 3);
  });

  it('a site belongs to its innermost function, and functions are found by their grammar', async () => {
    const text = 'def outer(a):\n    def inner(b):\n        return b + 1\n    return inner(a) - 2\n';
    const fns = await functionsOf('n.py', text, 'python');
    assert.deepEqual(fns.map((f) => [f.name, f.start, f.end]), [['outer', 1, 4], ['inner', 2, 3]]);
    const sites: Site[] = await sitesOf('n.py', text, 'python');
    const drawn = [...draw(fns, sites, new Map([['n.py', text.split('\n')]]), 1)];
    assert.deepEqual(drawn.filter((m) => m.line === 3).map((m) => m.fn), drawn.filter((m) => m.line === 3).map(() => 'inner'));
  });
});

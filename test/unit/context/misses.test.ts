// The causes behind bench:context's misses (seed 40: tomli, dissimilar, cJSON), each a rule for any project, each on a
// small project through the real gathering code; none of these bugs is in the first prompt of the code before.
import * as assert from 'assert';
import { contextProject } from './contextProject';

describe('first-prompt misses of bench:context, as rules', function () {
  this.timeout(60_000);
  const project = contextProject('greenloop-misses-');
  const { write, stateWith } = project;

  /** Functions nothing the failing test reaches calls: they make a file too big to be shown whole. */
  const rustFiller = (n: number) => Array.from({ length: n }, (_, i) => `pub fn pad${i}(s: &str) -> String {\n    format!("{}{}", s, "${'~'.repeat(i % 7)}")\n}\n`).join('\n');

  it("a Rust test's declaration begins at its `#[test]`: the test's body is shown and its calls followed", async () => {
    write('Cargo.toml', '[package]\nname = "runs"\nversion = "0.1.0"\nedition = "2021"\n');
    write('src/lib.rs', `mod range;\n#[cfg(test)]\nmod tests;\n\npub use range::Span;\n\n${rustFiller(150)}\npub fn merge_runs(v: &mut Vec<Span>) {\n    let mut i = 1;\n    while i < v.len() {\n        if v[i - 1].end == v[i].start {\n            v[i - 1].end = v[i].end + 1;\n            v.remove(i);\n        } else {\n            i += 1;\n        }\n    }\n}\n\n${rustFiller(150).replace(/pad/g, 'fill')}`);
    write('src/range.rs', 'pub struct Span {\n    pub start: usize,\n    pub end: usize,\n}\n\npub fn text<\'a>(s: &\'a str, span: &Span) -> &\'a str {\n    &s[span.start..span.end]\n}\n');
    const tests = Array.from({ length: 40 }, (_, i) => `#[test]\nfn test_other${i}() {\n    let s = pad${i}("a");\n    assert!(s.len() > 0, "pad${i} of a is not empty");\n    assert!(s.starts_with('a'), "pad${i} keeps its text");\n}\n`).join('\n');
    write('src/tests.rs', `use super::*;\nuse crate::range::text;\n\n${tests}\n#[test]\nfn test_adjacent_spans() {\n    let mut v = vec![Span { start: 0, end: 2 }, Span { start: 2, end: 4 }];\n    merge_runs(&mut v);\n    assert_eq!(text("abcd", &v[0]), "abcd");\n}\n`);
    // cargo names the place of the panic: a slice in another file, not the test.
    const state = stateWith([{ id: 'tests > test_adjacent_spans', file: 'src/range.rs', message: 'range end index 5 out of range for slice of length 4' }]);
    const prompt = await project.firstPrompt(state);
    assert.ok(prompt.includes('    merge_runs(&mut v);'), `the test's body:\n${prompt}`);
    assert.ok(prompt.includes('            v[i - 1].end = v[i].end + 1;'), `the function it calls:\n${prompt}`);
  });

  it('ranked lines keep their rank: the calls of the best-ranked function are followed first, wherever it sits in its file', async () => {
    // `render` (line 2) and `measure` (far below) are both stack frames; `measure`, the innermost, ranks first.
    const body = (name: string, calls: string[]) => `function ${name}(x) {\n${Array.from({ length: 8 }, (_, i) => `  x = x + ${i + 1}; // ${name} step ${i}`).join('\n')}\n${calls.map((c) => `  x = ${c}(x);`).join('\n')}\n  return x;\n}\n`;
    const layout = Array.from({ length: 8 }, (_, i) => body(`layout${i}`, [`paint${i}`])).join('\n');
    // Each layout's call chain goes on (paint → ink → dot → px): every level brings more names than one lookup takes.
    const chain = ['paint', 'ink', 'dot', 'px', 'bit'];
    const paint = chain.flatMap((step, k) => Array.from({ length: 8 }, (_, i) => body(`${step}${i}`, chain[k + 1] ? [`${chain[k + 1]}${i}`] : []))).join('\n');
    const filler = Array.from({ length: 120 }, (_, i) => `function unused${i}(s) {\n  return s + '${'.'.repeat(i % 5)}';\n}\n`).join('\n');
    write('lib/chart.js', `function render(x) {\n  return ${Array.from({ length: 8 }, (_, i) => `layout${i}(x)`).join(' + ')};\n}\n\n${layout}\n${paint}\n${filler}\nfunction clampWidth(w) {\n  return w > 80 ? 80 : w - 1;\n}\n\nfunction measure(x) {\n  return clampWidth(x) + render(0) * 0;\n}\n\nmodule.exports = { render, measure };\n`);
    write('test/chart.test.js', "const test = require('node:test');\nconst assert = require('assert');\nconst { measure } = require('../lib/chart');\n\ntest('measure', () => {\n  assert.strictEqual(measure(10), 10);\n});\n");
    const lines = require('fs').readFileSync(require('path').join(project.root, 'lib/chart.js'), 'utf8').split('\n');
    const at = (text: string) => lines.findIndex((l: string) => l.includes(text)) + 1;
    const state = stateWith([{ id: 'measure', file: 'test/chart.test.js', message: `AssertionError: 9 !== 10\n    at measure (lib/chart.js:${at('return clampWidth(x)')}:10)\n    at render (lib/chart.js:${at('return layout0(x)')}:3)\n    at TestContext.<anonymous> (test/chart.test.js:6:10)` }]);
    const prompt = await project.firstPrompt(state, 2500);
    assert.ok(prompt.includes('  return w > 80 ? 80 : w - 1;'), `what the innermost frame calls:\n${prompt}`);
  });
  it("a test's own name says what it tests: `test_encode_block` names `encode_block` among functions that share its words", async () => {
    // The test reaches its function only by a computed name, and ten shorter functions say "encode" and "block" too.
    const near = Array.from({ length: 10 }, (_, i) => `def encode_block_v${i}(data):\n    return encode_block_header(data) + b"${i}"\n`).join('\n\n');
    const filler = Array.from({ length: 80 }, (_, i) => `def unrelated_${i}(value):\n    return str(value) + "${'.'.repeat(i % 6)}"\n`).join('\n\n');
    write('codec/__init__.py', '');
    write('codec/blocks.py', `def encode_block_header(data):\n    return bytes([len(data)])\n\n\n${near}\n\n${filler}\n\ndef encode_block(data):\n    # Frames one block of data: its length, the data, and a checksum of every byte of it.\n    checksum = 0\n    for byte in data:\n        checksum = (checksum + byte) % 255\n    return encode_block_header(data) + bytes(data) + bytes([checksum + 1])\n\n\ndef run(name, data):\n    return globals()[name](data)\n`);
    write('tests/__init__.py', '');
    write('tests/test_blocks.py', 'from codec.blocks import run\n\n\ndef test_encode_block():\n    assert run("encode_block", b"ab") == b"\\x02ab\\xc3"\n');
    const state = stateWith([{ id: 'tests/test_blocks.py > test_encode_block', file: 'tests/test_blocks.py', message: "AssertionError: assert b'\\x02ab\\xc4' == b'\\x02ab\\xc3'\nTraceback, innermost first:\ntests/test_blocks.py:5: AssertionError" }]);
    const prompt = await project.firstPrompt(state, 1500);
    assert.ok(prompt.includes('    return encode_block_header(data) + bytes(data) + bytes([checksum + 1])'), `the function the test is named for:\n${prompt}`);
  });

  it('a test outside a test file is still a test: of several failing ones, one body whole and the others by their assertions', async () => {
    write('Cargo.toml', '[package]\nname = "sums"\nversion = "0.1.0"\nedition = "2021"\n');
    const body = (name: string, n: number) => `    #[test]\n    fn ${name}() {\n        let mut xs = Vec::new();\n${Array.from({ length: 40 }, (_, i) => `        xs.push(${i * n}); // setting up ${name}`).join('\n')}\n        assert_eq!(total(&xs), ${n * 780});\n    }\n`;
    write('src/lib.rs', `${rustFiller(120)}\npub fn total(xs: &[i64]) -> i64 {\n    xs.iter().fold(1, |a, b| a + b)\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n${body('sums_one', 1)}\n${body('sums_two', 2)}\n${body('sums_three', 3)}}\n`);
    const lines = require('fs').readFileSync(require('path').join(project.root, 'src/lib.rs'), 'utf8').split('\n');
    const at = (text: string) => lines.findIndex((l: string) => l.includes(text)) + 1;
    const failures = [1, 2, 3].map((n) => ({ id: `tests > sums_${['one', 'two', 'three'][n - 1]}`, file: 'src/lib.rs', message: `assertion \`left == right\` failed\n  left: ${n * 780 + 1}\n right: ${n * 780}\nthread panicked at src/lib.rs:${at(`assert_eq!(total(&xs), ${n * 780})`)}:9` }));
    const prompt = await project.firstPrompt(stateWith(failures), 2000);
    assert.ok(prompt.includes('// setting up sums_one') && !prompt.includes('// setting up sums_three'), `one body whole:\n${prompt}`);
    assert.ok(prompt.includes('    xs.iter().fold(1, |a, b| a + b)'), `and the code it calls:\n${prompt}`);
  });
  it('a name one lookup could not take is asked before the names of the next hop (nearer hops first)', async () => {
    // The test calls seven functions of one file; a lookup takes six, and each of those six calls a chain of more.
    const body = (name: string, calls: string[]) => `function ${name}(x) {\n${Array.from({ length: 8 }, (_, i) => `  x = x + ${i + 1}; // ${name} step ${i}`).join('\n')}\n${calls.map((c) => `  x = ${c}(x);`).join('\n')}\n  return x;\n}\n`;
    const chain = ['step', 'paint', 'ink', 'dot', 'px', 'bit'];
    const steps = chain.flatMap((step, k) => Array.from({ length: 6 }, (_, i) => body(`${step}${i}`, chain[k + 1] ? [`${chain[k + 1]}${i}`] : []))).join('\n');
    const filler = Array.from({ length: 120 }, (_, i) => `function unused${i}(s) {\n  return s + '${'.'.repeat(i % 5)}';\n}\n`).join('\n');
    const exported = [...Array.from({ length: 6 }, (_, i) => `step${i}`), 'clampWidth'];
    write('lib/chart.js', `${steps}\n${filler}\nfunction clampWidth(w) {\n  return w > 80 ? 80 : w - 1;\n}\n\nmodule.exports = { ${exported.join(', ')} };\n`);
    write('test/chart.test.js', `const test = require('node:test');\nconst assert = require('assert');\nconst { ${exported.join(', ')} } = require('../lib/chart');\n\ntest('chart', () => {\n  const x = ${exported.slice(0, 6).map((n) => `${n}(1)`).join(' + ')};\n  assert.strictEqual(clampWidth(x % 10), x % 10);\n});\n`);
    const state = stateWith([{ id: 'chart', file: 'test/chart.test.js', message: 'AssertionError: 4 !== 5\n    at TestContext.<anonymous> (test/chart.test.js:7:10)' }]);
    const prompt = await project.firstPrompt(state, 2500);
    assert.ok(prompt.includes('  return w > 80 ? 80 : w - 1;'), `the seventh function the test calls:\n${prompt}`);
  });

  it("a failing test's declaration is the test's own name, not its class's (a unittest class named like a Go test)", async () => {
    const filler = Array.from({ length: 60 }, (_, i) => `    def test_other_${i}(self):\n        self.assertEqual(parse("${i}"), ${i})\n${Array.from({ length: 6 }, (_, j) => `        self.assertEqual(parse(" ${i}${j}"), ${i}${j})  # spaced ${j}`).join('\n')}\n`).join('\n');
    write('calc/__init__.py', '');
    write('calc/parse.py', `def parse(text):\n    return int(text.strip())\n\n\ndef parse_hex(text):\n    return int(text.strip(), 15)\n`);
    write('tests/__init__.py', '');
    write('tests/test_parse.py', `import unittest\n\nfrom calc.parse import parse, parse_hex\n\n\nclass TestParse(unittest.TestCase):\n${filler}\n    def test_hex(self):\n        self.assertEqual(parse_hex("ff"), 255)\n`);
    const state = stateWith([{ id: 'tests/test_parse.py > TestParse > test_hex', file: 'tests/test_parse.py', message: "ValueError: invalid literal for int() with base 15: 'ff'" }]);
    const prompt = await project.firstPrompt(state, 2000);
    assert.ok(prompt.includes('        self.assertEqual(parse_hex("ff"), 255)'), `the failing test:\n${prompt}`);
    assert.ok(!prompt.includes('# spaced 3'), `not its class's other tests:\n${prompt}`);
  });
});

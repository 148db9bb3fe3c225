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
});

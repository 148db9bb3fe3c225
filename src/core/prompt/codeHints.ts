// Where the witness points: the files and lines its type errors, load errors, failure messages and stack frames name,
// scored so that a checker's line comes first, then frames in the code under test, then lines in the tests.
import type { CodeHint } from '../../ports/codeContext';
import type { WitnessSummary } from '../../ports/runState';
import { SOURCE_PATH, toWorkspaceRelative } from './contextFiles';

/** Python's traceback lines: `File "/work/app/cart.py", line 12, in total`. */
const PY_FRAME = /File "([^"]+)", line (\d+)/g;

/**
 * A doctest's own line: cargo names it `src/lib.rs - Version::parse (line 348)`, other runners say "(line 348)" of the
 * failure's file. The line is in the doc comment; the reader shows the item it documents.
 */
const DOCTEST = /([\w./-]+\.[A-Za-z]+) - [^\n]*?\(line (\d+)\)/g;
const LINE_SAID = /\(line (\d+)\)/;

/**
 * A JVM stack frame names its file without a folder: `at org.shop.Cart.total(Cart.java:12)`. The class's package is
 * the folder under a source root: the failing test's own (its path minus its package's folders), its main twin, or
 * the Maven/Gradle ones.
 */
const JVM_FRAME = /\bat ((?:[\w$]+\.)*)[\w$]+\.[\w$<>]+\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)/g;
const JVM_ROOTS = ['src/test/java', 'src/main/java', 'src/test/kotlin', 'src/main/kotlin', ''];

function jvmFramePaths(message: string, testFile: string | undefined, cwd: string): Array<{ rel: string; line: number }> {
  const out: Array<{ rel: string; line: number }> = [];
  for (const m of message.matchAll(JVM_FRAME)) {
    const folder = m[1]!.replace(/\.$/, '').split('.').filter((p) => /^[a-z_][\w$]*$/.test(p)).join('/');
    const own = testFile && folder && testFile.includes(`/${folder}/`) ? testFile.slice(0, testFile.lastIndexOf(`/${folder}/`)) : null;
    const roots = [...(own !== null ? [own, own.replace(/(^|\/)src\/test\//, '$1src/main/')] : []), ...JVM_ROOTS];
    for (const root of roots) {
      const rel = toWorkspaceRelative([root, folder, m[2]].filter(Boolean).join('/'), cwd);
      if (rel) {
        out.push({ rel, line: Number(m[3]) });
        break;
      }
    }
  }
  return out;
}

export const HINT_SCORES = { diagnostic: 100, loadError: 95, frame: 90, testLine: 80, excerpt: 50, testFile: 40 } as const;

/** Hints in the order the witness gives them; `isTest` tells a test file's lines from the code under test's. */
export function witnessHints(witness: WitnessSummary, cwd: string, isTest: (rel: string) => boolean): CodeHint[] {
  const out: CodeHint[] = [];
  const add = (p: string | undefined, line: number | undefined, score: number, source: CodeHint['source']) => {
    const rel = p ? toWorkspaceRelative(p, cwd) : null;
    if (!rel) return;
    const test = isTest(rel);
    out.push({ path: rel, ...(line && line > 0 ? { line } : {}), score: test && source !== 'diagnostic' ? (line ? HINT_SCORES.testLine : HINT_SCORES.testFile) : score, source: test ? 'test' : source });
  };
  const frames = (text: string, score: number) => {
    // Earlier frames are nearer the failure: each later one scores a little less.
    let i = 0;
    for (const m of text.matchAll(PY_FRAME)) add(m[1], Number(m[2]), score - Math.min(i++, 20) * 0.1, 'stack');
    for (const m of text.matchAll(SOURCE_PATH)) add(m[1], m[2] ? Number(m[2]) : undefined, m[2] ? score - Math.min(i++, 20) * 0.1 : score - 30, 'stack');
  };
  for (const d of witness.diagnostics) add(d.file, d.line, HINT_SCORES.diagnostic, 'diagnostic');
  for (const e of witness.loadErrors ?? []) {
    frames(e.message, HINT_SCORES.loadError);
    add(e.file, e.line, HINT_SCORES.testFile, 'test');
  }
  for (const f of witness.failures) {
    let doctest = false;
    for (const m of `${f.id}\n${f.message}`.matchAll(DOCTEST)) {
      add(m[1], Number(m[2]), HINT_SCORES.frame, 'stack');
      doctest = true;
    }
    const said = doctest || !f.file ? null : LINE_SAID.exec(`${f.id}\n${f.message}`);
    if (said) add(f.file, Number(said[1]), HINT_SCORES.frame, 'stack');
    jvmFramePaths(f.message, f.file, cwd).forEach((j, i) => add(j.rel, j.line, HINT_SCORES.frame - Math.min(i, 20) * 0.1, 'stack'));
    frames(f.message, HINT_SCORES.frame);
    add(f.file, undefined, HINT_SCORES.testFile, 'test');
  }
  frames(witness.outputExcerpt, HINT_SCORES.excerpt);
  return out;
}

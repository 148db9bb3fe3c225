// Code before test bodies (issue 40): of a failing test file, one test is shown whole — with the helpers of its file
// it calls — and each other failing test by its assertion lines alone. Several failing tests of one file mostly say
// the same thing in different inputs; what differs is what they assert, and the budget left goes to the code.
import type { CodeRegion } from '../../ports/codeContext';

export function oneBodyPerFile(regions: readonly CodeRegion[]): CodeRegion[] {
  const out: CodeRegion[] = [];
  let whole = false;
  for (const r of regions) {
    if (r.kind !== 'test') {
      out.push(r);
      continue;
    }
    if (!whole) {
      whole = true;
      out.push(r);
      continue;
    }
    // No assertion line found (a runner's own check, a helper that asserts): the head of the test says what it is.
    const lines = r.assertLines?.length ? r.assertLines : [r.startLine];
    const text = r.text.split('\n');
    for (const line of lines) out.push({ path: r.path, startLine: line, endLine: line, kind: 'test', ...(r.name ? { name: r.name } : {}), text: text[line - r.startLine] ?? '', score: r.score });
  }
  return out;
}

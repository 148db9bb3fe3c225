// Issue 32's pathologies: a right fix written the way models write it imperfectly. One answer drifts (spaces for the
// file's tabs, its blank lines dropped) in a tab-indented Python file, where spaces among tabs are a TabError; one is
// a unified diff with stale line numbers instead of SEARCH/REPLACE blocks. The scripted model writes each the same
// way every time it is asked, as a model with a habit does.
import type { ModelTurn } from './scenario';
import { CALC } from './calcRepo';

export const DRIFT_FILE = 'prices.py';

export const DRIFT_PRICES = [
  'def total(items):',
  '\tsubtotal = 0',
  '',
  '\tfor item in items:',
  '\t\tsubtotal += item["price"]',
  '',
  '\treturn subtotal',
  '',
  '',
  'def count(items):',
  '\treturn len(items)',
  '',
].join('\n');

export const DRIFT_TESTS = [
  'from prices import total, count',
  '',
  '',
  'def test_total_counts_quantities():',
  '\tassert total([{"price": 2, "qty": 3}, {"price": 1, "qty": 1}]) == 7',
  '',
  '',
  'def test_count():',
  '\tassert count([{}, {}]) == 2',
  '',
].join('\n');

/** The fix as a model that writes 4 spaces and no blank lines answers it; the loop over items gains a line. */
export function driftAnswer(t: ModelTurn): { content: string } {
  if (!(t.read(DRIFT_FILE) ?? '').includes('subtotal += item["price"]\n')) return { content: 'Nothing left to do.' };
  const search = ['def total(items):', '    subtotal = 0', '    for item in items:', '        subtotal += item["price"]', '    return subtotal'];
  const replace = ['def total(items):', '    subtotal = 0', '    for item in items:', '        qty = item.get("qty", 1)', '        subtotal += item["price"] * qty', '    return subtotal'];
  return {
    content: `The quantity is ignored.\n\n${DRIFT_FILE}\n\`\`\`python\n<<<<<<< SEARCH\n${search.join('\n')}\n=======\n${replace.join('\n')}\n>>>>>>> REPLACE\n\`\`\`\n`,
  };
}

/** The add fix as a unified diff whose line numbers are stale (the function is on line 3, the header says 41). */
export function diffAnswer(t: ModelTurn): { content: string } {
  if (!(t.read(CALC) ?? '').includes('return a - b;\n}\n\nfunction sub')) return { content: 'Nothing left to do.' };
  return {
    content: `add subtracts.\n\n\`\`\`diff\n--- a/${CALC}\n+++ b/${CALC}\n@@ -41,3 +41,3 @@\n function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n\`\`\`\n`,
  };
}

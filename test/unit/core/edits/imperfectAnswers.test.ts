// Issue 32's corpus: imperfect answers written the way models write them (tabs in the file and spaces in the answer,
// blank-line drift, elisions, a path in the fence's info string, unified diffs, line numbers, truncated lines), in
// JavaScript, TypeScript and Python files with tabs, CRLF and no final newline. Each lands exactly where it should (the
// whole file is compared) or is refused with a note the model can act on; nothing is ever applied in the wrong place.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEditBlocks } from '../../../../src/core/edits/applyBlocks';
import { parseEditBlocks } from '../../../../src/core/edits/parseBlocks';
import { makePathPolicy } from '../../../../src/core/edits/pathPolicy';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../src/session/protectedGlobs';
import { systemPrompt } from '../../../../src/core/prompt/prompt';

const F = '```';

/** `text` with `from` (which must occur exactly once) replaced by `to`: the expected files are written this way. */
function sub(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  assert.ok(at >= 0 && text.indexOf(from, at + 1) < 0, `the corpus's own expectation: ${JSON.stringify(from)} once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}
const crlf = (s: string) => s.replace(/\n/g, '\r\n');

/** An answer as models write it: prose, the path, a fence, one SEARCH/REPLACE block. */
const answer = (file: string, search: string, replace: string, info = 'js') =>
  `The fix is below.\n\n${file}\n${F}${info}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n${F}\n`;
const fenced = (info: string, search: string, replace: string) =>
  `Here is the change:\n\n${F}${info}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n${F}\n`;
const diff = (body: string) => `Here is a patch:\n\n${F}diff\n${body}${F}\n`;

// ---- the files ----
const CART_JS = [
  "'use strict';", '', 'class Cart {', '\tconstructor() {', '\t\tthis.items = [];', '\t}', '', '\tadd(item) {', '\t\tthis.items.push(item);', '\t}', '',
  '\ttotal() {', '\t\tlet sum = 0;', '\t\tfor (const item of this.items) {', '\t\t\tsum += item.price;', '\t\t}', '\t\treturn sum;', '\t}', '',
  '\tcount() {', '\t\treturn this.items.length;', '\t}', '}', '', 'module.exports = { Cart };', '',
].join('\n');
const PRICES_PY = [
  'import math', '', '', 'def cents(amount):', '    return round(amount * 100)', '', '',
  'def total(prices, discount=0):', '    subtotal = sum(prices)', '', '    if discount:', '        subtotal -= subtotal * discount', '', '    return subtotal', '', '',
  'def tax(amount, rate):', '    return amount * rate', '',
].join('\n');
const PRICES_TABS_PY = PRICES_PY.replace(/^((?: {4})+)/gm, (m) => '\t'.repeat(m.length / 4));
const INVOICE_TS = crlf([
  'export interface Line {', '  price: number;', '  qty: number;', '}', '',
  'export function lineTotal(line: Line): number {', '  return line.price * line.qty;', '}', '',
  'export function invoiceTotal(lines: Line[]): number {', '  let total = 0;', '  for (const line of lines) {', '    total += lineTotal(line);', '  }', '  return total;', '}', '',
].join('\n'));
const UTIL_JS = [
  'function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return hi;', '  return x;', '}', '',
  'function lerp(a, b, t) {', '  return a + (b - a) * t;', '}', '', 'module.exports = { clamp, lerp };',
].join('\n');
const NAMES_PY = ['NAMES = {', "    1: 'one',", "    2: 'two',", "    3: 'three',", '}', '', '', 'def name(n):', "    return NAMES.get(n, '?')", ''].join('\n');
const ROUTES_TS = [
  "import { get } from './http';", '', 'export function users() {', "  return get('/users');", '}', '', 'export function orders() {', "  return get('/orders');", '}', '',
].join('\n');

const FILES: Record<string, string> = {
  'src/cart.js': CART_JS,
  'prices.py': PRICES_PY,
  'tabbed/prices.py': PRICES_TABS_PY,
  'src/invoice.ts': INVOICE_TS,
  'src/util.js': UTIL_JS,
  'names.py': NAMES_PY,
  'src/routes.ts': ROUTES_TS,
};

type Expect =
  | { files: Record<string, string>; matchedBy: Record<string, number> }
  | { refused: RegExp[]; notQuoted?: string[] };

interface Case {
  mode: string;
  what: string;
  answer: string;
  expect: Expect;
}

const CASES: Case[] = [
  // ---- tabs in the file, spaces in the answer (and other indentation styles): re-based onto the file's own ----
  {
    mode: 'indentation', what: 'JS with tabs, a whole method answered with 4 spaces and a new nested block',
    answer: answer('src/cart.js', '    total() {\n        let sum = 0;\n        for (const item of this.items) {\n            sum += item.price;\n        }\n        return sum;\n    }\n',
      '    total() {\n        let sum = 0;\n        for (const item of this.items) {\n            if (item.qty) {\n                sum += item.price * item.qty;\n            }\n        }\n        return sum;\n    }\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, '\t\t\tsum += item.price;\n', '\t\t\tif (item.qty) {\n\t\t\t\tsum += item.price * item.qty;\n\t\t\t}\n') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'JS with tabs, answered with 2 spaces from column 0 (the class level dropped)',
    answer: answer('src/cart.js', 'add(item) {\n  this.items.push(item);\n}\n', 'add(item) {\n  if (!item) {\n    throw new Error("no item");\n  }\n  this.items.push(item);\n}\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, '\tadd(item) {\n', '\tadd(item) {\n\t\tif (!item) {\n\t\t\tthrow new Error("no item");\n\t\t}\n') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'Python with tabs, answered with 4 spaces (a TabError if written as is)',
    answer: answer('tabbed/prices.py', '    if discount:\n        subtotal -= subtotal * discount\n', '    if discount:\n        if discount > 1:\n            discount = discount / 100\n        subtotal -= subtotal * discount\n', 'python'),
    expect: { files: { 'tabbed/prices.py': sub(PRICES_TABS_PY, '\tif discount:\n', '\tif discount:\n\t\tif discount > 1:\n\t\t\tdiscount = discount / 100\n') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'Python with tabs, answered with 2 spaces',
    answer: answer('tabbed/prices.py', 'def tax(amount, rate):\n  return amount * rate\n', 'def tax(amount, rate):\n  if rate < 0:\n    raise ValueError("rate")\n  return amount * rate\n', 'py'),
    expect: { files: { 'tabbed/prices.py': sub(PRICES_TABS_PY, '\treturn amount * rate', '\tif rate < 0:\n\t\traise ValueError("rate")\n\treturn amount * rate') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'TypeScript with 2 spaces and CRLF, answered with tabs and LF',
    answer: answer('src/invoice.ts', '\tfor (const line of lines) {\n\t\ttotal += lineTotal(line);\n\t}\n', '\tfor (const line of lines) {\n\t\tif (line.qty > 0) {\n\t\t\ttotal += lineTotal(line);\n\t\t}\n\t}\n', 'ts'),
    expect: { files: { 'src/invoice.ts': sub(INVOICE_TS, '    total += lineTotal(line);\r\n', '    if (line.qty > 0) {\r\n      total += lineTotal(line);\r\n    }\r\n') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'Python with 4 spaces, answered with tabs',
    answer: answer('prices.py', 'def cents(amount):\n\treturn round(amount * 100)\n', 'def cents(amount):\n\tif amount is None:\n\t\treturn 0\n\treturn round(amount * 100)\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, '    return round(amount * 100)', '    if amount is None:\n        return 0\n    return round(amount * 100)') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'Python with 4 spaces, answered with 2 spaces and a new nested line',
    answer: answer('prices.py', '  if discount:\n    subtotal -= subtotal * discount\n', '  if discount:\n    for _ in range(1):\n      subtotal -= subtotal * discount\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, '        subtotal -= subtotal * discount\n', '        for _ in range(1):\n            subtotal -= subtotal * discount\n') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'JS without a final newline, the last function answered with 4 spaces',
    answer: answer('src/util.js', 'function lerp(a, b, t) {\n    return a + (b - a) * t;\n}\n', 'function lerp(a, b, t) {\n    const k = Math.min(1, Math.max(0, t));\n    return a + (b - a) * k;\n}\n'),
    expect: { files: { 'src/util.js': sub(UTIL_JS, '  return a + (b - a) * t;', '  const k = Math.min(1, Math.max(0, t));\n  return a + (b - a) * k;') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'JS without a final newline, its unterminated last line answered with an indent',
    answer: answer('src/util.js', '  module.exports = { clamp, lerp };\n', '  module.exports = { clamp, lerp, version: 2 };\n'),
    expect: { files: { 'src/util.js': sub(UTIL_JS, 'module.exports = { clamp, lerp };', 'module.exports = { clamp, lerp, version: 2 };') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'Python with 4 spaces, the function body answered flush left (every level dropped)',
    answer: answer('prices.py', 'def total(prices, discount=0):\nsubtotal = sum(prices)\n', 'def total(prices, discount=0):\nsubtotal = sum(prices)\nassert subtotal >= 0\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, '    subtotal = sum(prices)\n', '    subtotal = sum(prices)\n    assert subtotal >= 0\n') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'a method header answered with spaces, the brace before it and a blank line as context',
    answer: answer('src/cart.js', '    }\n\n    count() {\n', '    }\n\n    size() {\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, '\tcount() {', '\tsize() {') }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'indentation', what: 'a single line answered with spaces that occurs twice at different depths: refused',
    answer: answer('src/cart.js', '  }\n', '  };\n'),
    expect: { refused: [/src\/cart\.js was found \d+ times \(matched by indentation\) \(lines 6, 10, /, /include more surrounding lines/] },
  },

  // ---- blank-line drift ----
  {
    mode: 'blank-lines', what: 'Python: the SEARCH lacks the blank line after `subtotal = sum(prices)`; the file keeps it',
    answer: answer('prices.py', 'def total(prices, discount=0):\n    subtotal = sum(prices)\n    if discount:\n        subtotal -= subtotal * discount\n', 'def total(prices, discount=0):\n    subtotal = sum(prices)\n    if discount:\n        subtotal -= subtotal * discount / 100\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, 'subtotal * discount\n', 'subtotal * discount / 100\n') }, matchedBy: { 'blank-lines': 1 } },
  },
  {
    mode: 'blank-lines', what: 'Python: the SEARCH has a blank line more than the file',
    answer: answer('prices.py', 'def tax(amount, rate):\n\n    return amount * rate\n', 'def tax(amount, rate):\n\n    return round(amount * rate, 2)\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, '    return amount * rate', '    return round(amount * rate, 2)') }, matchedBy: { 'blank-lines': 1 } },
  },
  {
    mode: 'blank-lines', what: 'JS with tabs: no blank line between two methods, and spaces for tabs',
    answer: answer('src/cart.js', '  add(item) {\n    this.items.push(item);\n  }\n  total() {\n', '  add(item) {\n    this.items.push({ ...item });\n  }\n  total() {\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, 'this.items.push(item);', 'this.items.push({ ...item });') }, matchedBy: { 'blank-lines': 1 } },
  },
  {
    mode: 'blank-lines', what: 'TypeScript with CRLF: two blank lines where the file has one',
    answer: answer('src/invoice.ts', '}\n\n\nexport function lineTotal(line: Line): number {\n  return line.price * line.qty;\n', '}\n\n\nexport function lineTotal(line: Line): number {\n  return line.price * (line.qty ?? 1);\n', 'ts'),
    expect: { files: { 'src/invoice.ts': sub(INVOICE_TS, 'line.price * line.qty;', 'line.price * (line.qty ?? 1);') }, matchedBy: { 'blank-lines': 1 } },
  },
  {
    mode: 'blank-lines', what: 'the model adds a line where it also dropped a blank line: the file\'s other blank lines stay',
    answer: answer('prices.py', '    subtotal = sum(prices)\n    if discount:\n', '    subtotal = sum(prices)\n    discount = discount or 0\n    if discount:\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, '    subtotal = sum(prices)\n\n', '    subtotal = sum(prices)\n\n    discount = discount or 0\n') }, matchedBy: { 'blank-lines': 1 } },
  },
  {
    mode: 'blank-lines', what: 'without a final newline: a blank line dropped before the last line',
    answer: answer('src/util.js', '}\nmodule.exports = { clamp, lerp };\n', '}\nmodule.exports = { clamp, lerp, sum: (a, b) => a + b };\n'),
    expect: { files: { 'src/util.js': sub(UTIL_JS, 'module.exports = { clamp, lerp };', 'module.exports = { clamp, lerp, sum: (a, b) => a + b };') }, matchedBy: { 'blank-lines': 1 } },
  },
  {
    mode: 'blank-lines', what: 'ignoring blank lines the SEARCH occurs twice: refused',
    answer: answer('src/routes.ts', '}\nexport function\n'.replace('export function\n', '') + '\n\n\n', 'x\n', 'ts'),
    expect: { refused: [/found 2 times \(matched by blank-lines\) \(lines 5, 9\)/] },
  },
  {
    mode: 'blank-lines', what: 'a blank line in the middle of a tabbed Python function dropped, answered with spaces',
    answer: answer('tabbed/prices.py', '    subtotal = sum(prices)\n    if discount:\n        subtotal -= subtotal * discount\n    return subtotal\n', '    subtotal = sum(prices)\n    if discount:\n        subtotal -= subtotal * discount\n    return max(subtotal, 0)\n', 'python'),
    expect: { files: { 'tabbed/prices.py': sub(PRICES_TABS_PY, '\treturn subtotal\n', '\treturn max(subtotal, 0)\n') }, matchedBy: { 'blank-lines': 1 } },
  },

  // ---- elisions (Aider's dotdotdots) ----
  {
    mode: 'elision', what: 'JS: `// ... existing code ...` stands for the loop; only the return changes',
    answer: answer('src/cart.js', '\ttotal() {\n\t\tlet sum = 0;\n\t\t// ... existing code ...\n\t\treturn sum;\n\t}\n', '\ttotal() {\n\t\tlet sum = 0;\n\t\t// ... existing code ...\n\t\treturn Math.round(sum * 100) / 100;\n\t}\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, '\t\treturn sum;', '\t\treturn Math.round(sum * 100) / 100;') }, matchedBy: { elision: 1 } },
  },
  {
    mode: 'elision', what: 'Python: `# ...` for the middle of a function',
    answer: answer('prices.py', 'def total(prices, discount=0):\n    subtotal = sum(prices)\n    # ...\n    return subtotal\n', 'def total(prices, discount=0):\n    subtotal = sum(prices, 0.0)\n    # ...\n    return subtotal\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, 'sum(prices)', 'sum(prices, 0.0)') }, matchedBy: { elision: 1 } },
  },
  {
    mode: 'elision', what: 'a bare `...` line in JS, with spaces for tabs',
    answer: answer('src/cart.js', '  total() {\n    let sum = 0;\n    ...\n    return sum;\n  }\n', '  total() {\n    let sum = 0;\n    ...\n    return sum;\n  }\n\n  isEmpty() {\n    return this.items.length === 0;\n  }\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, '\t\treturn sum;\n\t}\n', '\t\treturn sum;\n\t}\n\n\tisEmpty() {\n\t\treturn this.items.length === 0;\n\t}\n') }, matchedBy: { elision: 1 } },
  },
  {
    mode: 'elision', what: 'two elisions, both kept in the REPLACE',
    answer: answer('src/cart.js', 'class Cart {\n\t// ... existing code ...\n\t\tlet sum = 0;\n\t// ... existing code ...\n\tcount() {\n\t\treturn this.items.length;\n', 'class Cart {\n\t// ... existing code ...\n\t\tlet sum = 0.0;\n\t// ... existing code ...\n\tcount() {\n\t\treturn this.items.length | 0;\n'),
    expect: { files: { 'src/cart.js': sub(sub(CART_JS, 'let sum = 0;', 'let sum = 0.0;'), 'return this.items.length;', 'return this.items.length | 0;') }, matchedBy: { elision: 1 } },
  },
  {
    mode: 'elision', what: 'the REPLACE drops the elision of the SEARCH: refused, naming it',
    answer: answer('src/cart.js', '\ttotal() {\n\t\tlet sum = 0;\n\t\t// ... existing code ...\n\t\treturn sum;\n\t}\n', '\ttotal() {\n\t\tlet sum = 0;\n\t\treturn sum;\n\t}\n'),
    expect: { refused: [/was refused: its SEARCH leaves lines out with 1 elision but its REPLACE has 0, so Greenloop cannot tell what elision 1 \(`\/\/ \.\.\. existing code \.\.\.`, line 3 of the SEARCH\) keeps/] },
  },
  {
    mode: 'elision', what: 'the lines after the elision occur twice after the lines before it: refused, naming the elision',
    answer: answer('src/cart.js', 'class Cart {\n\t// ...\n\t}\n\n', 'class Cart {\n\t// ...\n\t};\n\n'),
    expect: { refused: [/the lines after elision 1 \(`\/\/ \.\.\.`, line 2 of the SEARCH\) occur \d+ times after line 3 of the file \(lines 6, 10, /, /so the elision is ambiguous/] },
  },
  {
    mode: 'elision', what: 'an elision in the REPLACE only: refused, it would delete the code it stands for',
    answer: answer('src/cart.js', '\ttotal() {\n\t\tlet sum = 0;\n', '\ttotal() {\n\t\tlet sum = 0;\n\t\t// ... existing code ...\n'),
    expect: { refused: [/its REPLACE stands `\/\/ \.\.\. existing code \.\.\.` \(line 3 of the REPLACE\) for lines its SEARCH does not leave out/] },
  },
  {
    mode: 'elision', what: 'Python: a bare `...` in the REPLACE is a statement (a stub body), written as code',
    answer: answer('prices.py', 'def tax(amount, rate):\n    return amount * rate\n', 'def tax(amount, rate):\n    return amount * rate\n\n\ndef fee(amount):\n    ...\n', 'python'),
    expect: { files: { 'prices.py': `${PRICES_PY}\n\ndef fee(amount):\n    ...\n` }, matchedBy: { exact: 1 } },
  },
  {
    mode: 'elision', what: 'an elision first in both SEARCH and REPLACE: the rest is placed',
    answer: answer('src/util.js', '// ... existing code ...\nfunction lerp(a, b, t) {\n  return a + (b - a) * t;\n}\n', '// ... existing code ...\nfunction lerp(a, b, t) {\n  return a * (1 - t) + b * t;\n}\n'),
    expect: { files: { 'src/util.js': sub(UTIL_JS, 'a + (b - a) * t', 'a * (1 - t) + b * t') }, matchedBy: { elision: 1 } },
  },
  {
    mode: 'elision', what: 'TypeScript with CRLF: an elision in a function',
    answer: answer('src/invoice.ts', 'export function invoiceTotal(lines: Line[]): number {\n  let total = 0;\n  // ... rest of the function unchanged ...\n  return total;\n}\n', 'export function invoiceTotal(lines: Line[]): number {\n  let total = 0;\n  // ... rest of the function unchanged ...\n  return Math.round(total);\n}\n', 'ts'),
    expect: { files: { 'src/invoice.ts': sub(INVOICE_TS, '  return total;', '  return Math.round(total);') }, matchedBy: { elision: 1 } },
  },
  {
    mode: 'elision', what: 'the lines before the elision are not in the file: refused, the file\'s closest lines quoted',
    answer: answer('src/cart.js', '\ttotal() {\n\t\tlet total = 0;\n\t\t// ...\n\t\treturn sum;\n', '\ttotal() {\n\t\tlet total = 1;\n\t\t// ...\n\t\treturn sum;\n'),
    expect: { refused: [/the lines before elision 1 \(`\/\/ \.\.\.`, line 3 of the SEARCH\) are not in the file; line 13 of the file has `sum` where line 2 of your SEARCH has `total`/, /```\n\ttotal\(\) \{\n\t\tlet sum = 0;\n```/], notQuoted: ['let total = 0'] },
  },
  {
    mode: 'elision', what: 'a spread `...item` is code, not an elision',
    answer: answer('src/cart.js', '\tadd(item) {\n\t\tthis.items.push(item);\n', '\tadd(item) {\n\t\tthis.items.push({\n\t\t\t...item,\n\t\t});\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, '\t\tthis.items.push(item);', '\t\tthis.items.push({\n\t\t\t...item,\n\t\t});') }, matchedBy: { exact: 1 } },
  },
  {
    mode: 'elision', what: 'new lines put before a leading elision have no place: refused',
    answer: answer('src/util.js', '// ...\nfunction lerp(a, b, t) {\n', "'use strict';\n// ...\nfunction lerp(a, b, t) {\n"),
    expect: { refused: [/its REPLACE puts new lines before elision 1 \(`\/\/ \.\.\.`, line 1 of the SEARCH\), where its SEARCH has no line to place them by/] },
  },

  // ---- the path in the fence's info string ----
  {
    mode: 'fence-path', what: '```js src/cart.js',
    answer: fenced('js src/cart.js', '\t\treturn this.items.length;\n', '\t\treturn this.items.length || 0;\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, 'return this.items.length;', 'return this.items.length || 0;') }, matchedBy: { 'fence-path': 1 } },
  },
  {
    mode: 'fence-path', what: '```src/cart.js',
    answer: fenced('src/cart.js', '\t\tlet sum = 0;\n', '\t\tlet sum = 0; // cents\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, 'let sum = 0;', 'let sum = 0; // cents') }, matchedBy: { 'fence-path': 1 } },
  },
  {
    mode: 'fence-path', what: '```typescript:src/invoice.ts with CRLF in the file',
    answer: fenced('typescript:src/invoice.ts', '  let total = 0;\n', '  let total = 0.0;\n'),
    expect: { files: { 'src/invoice.ts': sub(INVOICE_TS, 'let total = 0;', 'let total = 0.0;') }, matchedBy: { 'fence-path': 1 } },
  },
  {
    mode: 'fence-path', what: '```python title="prices.py", answered with tabs',
    answer: fenced('python title="prices.py"', 'def tax(amount, rate):\n\treturn amount * rate\n', 'def tax(amount, rate):\n\treturn amount * rate / 100\n'),
    expect: { files: { 'prices.py': sub(PRICES_PY, 'return amount * rate\n', 'return amount * rate / 100\n') }, matchedBy: { 'fence-path+indentation': 1 } },
  },
  {
    mode: 'fence-path', what: 'a new file named in the info string, with an empty SEARCH',
    answer: fenced('js src/money.js', '', 'exports.money = (n) => `$${n.toFixed(2)}`;\n'),
    expect: { files: { 'src/money.js': 'exports.money = (n) => `$${n.toFixed(2)}`;\n' }, matchedBy: { 'fence-path+new-file': 1 } },
  },
  {
    mode: 'fence-path', what: 'an info-string path that is not a workspace file, with a SEARCH: refused',
    answer: fenced('js src/basket.js', '\t\tlet sum = 0;\n', '\t\tlet sum = 1;\n'),
    expect: { refused: [/Block 1 names src\/basket\.js in its fence's info string, which is not a file of the workspace; write the path of the file to change on its own line/] },
  },
  {
    mode: 'fence-path', what: 'a path line before the fence wins over the info string',
    answer: `src/util.js\n${F}js src/cart.js\n<<<<<<< SEARCH\n  return x;\n=======\n  return Number(x);\n>>>>>>> REPLACE\n${F}\n`,
    expect: { files: { 'src/util.js': sub(UTIL_JS, '  return x;', '  return Number(x);') }, matchedBy: { exact: 1 } },
  },
  {
    mode: 'fence-path', what: 'two blocks, each with its own path in its fence, do not inherit each other\'s',
    answer: `${fenced('js src/util.js', '  return x;\n', '  return +x;\n')}\n${fenced('ts src/routes.ts', "  return get('/orders');\n", "  return get('/orders?all=1');\n")}`,
    expect: { files: { 'src/util.js': sub(UTIL_JS, '  return x;', '  return +x;'), 'src/routes.ts': sub(ROUTES_TS, "get('/orders')", "get('/orders?all=1')") }, matchedBy: { 'fence-path': 2 } },
  },

  // ---- a unified diff instead of blocks ----
  {
    mode: 'unified-diff', what: 'a git diff with the right line numbers',
    answer: diff('diff --git a/src/cart.js b/src/cart.js\n--- a/src/cart.js\n+++ b/src/cart.js\n@@ -13,5 +13,5 @@ class Cart {\n \t\tlet sum = 0;\n \t\tfor (const item of this.items) {\n-\t\t\tsum += item.price;\n+\t\t\tsum += item.price * (item.qty ?? 1);\n \t\t}\n \t\treturn sum;\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, 'sum += item.price;', 'sum += item.price * (item.qty ?? 1);') }, matchedBy: { 'unified-diff': 1 } },
  },
  {
    mode: 'unified-diff', what: 'stale line numbers (off by 40): placed by the context lines',
    answer: diff('--- a/prices.py\n+++ b/prices.py\n@@ -58,3 +58,3 @@\n def tax(amount, rate):\n-    return amount * rate\n+    return amount * rate / 100\n'),
    expect: { files: { 'prices.py': sub(PRICES_PY, '    return amount * rate\n', '    return amount * rate / 100\n') }, matchedBy: { 'unified-diff': 1 } },
  },
  {
    mode: 'unified-diff', what: '`@@ ... @@` without numbers',
    answer: diff('--- src/util.js\n+++ src/util.js\n@@ ... @@\n function clamp(x, lo, hi) {\n+  if (Number.isNaN(x)) return lo;\n   if (x < lo) return lo;\n'),
    expect: { files: { 'src/util.js': sub(UTIL_JS, '  if (x < lo) return lo;', '  if (Number.isNaN(x)) return lo;\n  if (x < lo) return lo;') }, matchedBy: { 'unified-diff': 1 } },
  },
  {
    mode: 'unified-diff', what: 'two hunks in one file',
    answer: diff('--- a/src/util.js\n+++ b/src/util.js\n@@ -1,3 +1,3 @@\n function clamp(x, lo, hi) {\n-  if (x < lo) return lo;\n+  if (x <= lo) return lo;\n   if (x > hi) return hi;\n@@ -7,3 +7,3 @@\n function lerp(a, b, t) {\n-  return a + (b - a) * t;\n+  return a + (b - a) * clampT(t);\n }\n'),
    expect: { files: { 'src/util.js': sub(sub(UTIL_JS, 'x < lo', 'x <= lo'), '(b - a) * t', '(b - a) * clampT(t)') }, matchedBy: { 'unified-diff': 2 } },
  },
  {
    mode: 'unified-diff', what: 'two files in one diff, one TypeScript with CRLF',
    answer: diff("--- a/src/routes.ts\n+++ b/src/routes.ts\n@@ -3,3 +3,3 @@\n export function users() {\n-  return get('/users');\n+  return get('/users?active=1');\n }\n--- a/src/invoice.ts\n+++ b/src/invoice.ts\n@@ -6,3 +6,3 @@\n export function lineTotal(line: Line): number {\n-  return line.price * line.qty;\n+  return Math.round(line.price * line.qty);\n }\n"),
    expect: { files: { 'src/routes.ts': sub(ROUTES_TS, "get('/users')", "get('/users?active=1')"), 'src/invoice.ts': sub(INVOICE_TS, 'return line.price * line.qty;', 'return Math.round(line.price * line.qty);') }, matchedBy: { 'unified-diff': 2 } },
  },
  {
    mode: 'unified-diff', what: 'a diff written with spaces against a tab-indented file',
    answer: diff('--- a/src/cart.js\n+++ b/src/cart.js\n@@ -20,3 +20,3 @@\n     count() {\n-        return this.items.length;\n+        return this.items.filter(Boolean).length;\n     }\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, 'return this.items.length;', 'return this.items.filter(Boolean).length;') }, matchedBy: { 'unified-diff+indentation': 1 } },
  },
  {
    mode: 'unified-diff', what: 'the second hunk does not match: refused, the hunk named, the file\'s lines quoted',
    answer: diff('--- a/src/util.js\n+++ b/src/util.js\n@@ -1,2 +1,2 @@\n function clamp(x, lo, hi) {\n-  if (x < lo) return lo;\n+  if (x <= lo) return lo;\n@@ -7,2 +7,2 @@\n function lerp(a, b, t) {\n-  return a + (b - a) * u;\n+  return a + (b - a) * t;\n'),
    expect: { refused: [/^Hunk 2 \(`@@ -7,2 \+7,2 @@`\) of the diff for src\/util\.js was not found: line 8 of the file has `t` where line 2 of your SEARCH has `u`; lines 7-8 of the file are now:/], notQuoted: ['* u;'] },
  },
  {
    mode: 'unified-diff', what: 'a hunk whose context occurs twice: refused, the hunk named',
    answer: diff('--- a/src/cart.js\n+++ b/src/cart.js\n@@ -6,2 +6,3 @@\n \t}\n+\t// end of method\n \n'),
    expect: { refused: [/^Hunk 1 \(`@@ -6,2 \+6,3 @@`\) of the diff for src\/cart\.js was found 3 times \(lines 6, 10, 18\)/] },
  },
  {
    mode: 'unified-diff', what: 'a diff that creates a new file',
    answer: diff('--- /dev/null\n+++ b/src/format.js\n@@ -0,0 +1,3 @@\n+exports.format = function format(n) {\n+  return n.toFixed(2);\n+};\n'),
    expect: { files: { 'src/format.js': 'exports.format = function format(n) {\n  return n.toFixed(2);\n};\n' }, matchedBy: { 'unified-diff+new-file': 1 } },
  },
  {
    mode: 'unified-diff', what: 'hunks without ---/+++ under a path line',
    answer: `names.py\n${F}diff\n@@ -8,2 +8,2 @@\n def name(n):\n-    return NAMES.get(n, '?')\n+    return NAMES.get(n, str(n))\n${F}\n`,
    expect: { files: { 'names.py': sub(NAMES_PY, "NAMES.get(n, '?')", 'NAMES.get(n, str(n))') }, matchedBy: { 'unified-diff': 1 } },
  },
  {
    mode: 'unified-diff', what: 'a diff that deletes a file: refused',
    answer: diff('--- a/src/util.js\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-function clamp(x, lo, hi) {\n-  if (x < lo) return lo;\n'),
    expect: { refused: [/Hunk 1 \(`@@ -1,2 \+0,0 @@`\) of the diff deletes src\/util\.js; Greenloop does not delete files through a diff/] },
  },
  {
    mode: 'unified-diff', what: 'a hunk of added lines only, with no context: refused',
    answer: diff('--- a/src/util.js\n+++ b/src/util.js\n@@ -11,0 +12,1 @@\n+module.exports.version = 2;\n'),
    expect: { refused: [/Hunk 1 \(`@@ -11,0 \+12,1 @@`\) of the diff for src\/util\.js has no context or removed lines, so there is no place to put it/] },
  },
  {
    mode: 'unified-diff', what: 'blank context lines without their leading space, and prose after the diff',
    answer: `${diff('--- a/prices.py\n+++ b/prices.py\n@@ -9,4 +9,4 @@ def total(prices, discount=0):\n     subtotal = sum(prices)\n\n-    if discount:\n+    if discount > 0:\n         subtotal -= subtotal * discount\n')}\n- only positive discounts apply now\n`,
    expect: { files: { 'prices.py': sub(PRICES_PY, '    if discount:', '    if discount > 0:') }, matchedBy: { 'unified-diff': 1 } },
  },

  // ---- line numbers copied from a numbered view ----
  {
    mode: 'line-numbers', what: '`12: ` prefixes on every line, the file\'s real numbers',
    answer: answer('src/cart.js', '12: \ttotal() {\n13: \t\tlet sum = 0;\n', '12: \ttotal() {\n13: \t\tlet sum = 0.0;\n'),
    expect: { files: { 'src/cart.js': sub(CART_JS, 'let sum = 0;', 'let sum = 0.0;') }, matchedBy: { 'line-numbers': 1 } },
  },
  {
    mode: 'line-numbers', what: '` 8 | ` right-aligned with a pipe, Python, a new unnumbered line in the REPLACE',
    answer: answer('prices.py', ' 8 | def total(prices, discount=0):\n 9 |     subtotal = sum(prices)\n', ' 8 | def total(prices, discount=0):\n 9 |     subtotal = sum(prices)\n    subtotal = float(subtotal)\n', 'python'),
    expect: { files: { 'prices.py': sub(PRICES_PY, '    subtotal = sum(prices)\n', '    subtotal = sum(prices)\n    subtotal = float(subtotal)\n') }, matchedBy: { 'line-numbers': 1 } },
  },
  {
    mode: 'line-numbers', what: '`cat -n` style (padded number, tab), TypeScript with CRLF',
    answer: answer('src/invoice.ts', '     6\texport function lineTotal(line: Line): number {\n     7\t  return line.price * line.qty;\n', '     6\texport function lineTotal(line: Line): number {\n     7\t  return line.price * line.qty * 1.0;\n', 'ts'),
    expect: { files: { 'src/invoice.ts': sub(INVOICE_TS, 'line.price * line.qty;', 'line.price * line.qty * 1.0;') }, matchedBy: { 'line-numbers': 1 } },
  },
  {
    mode: 'line-numbers', what: 'numbers that are not the file\'s line numbers: not stripped, refused, the real lines quoted',
    answer: answer('src/cart.js', '30: \ttotal() {\n31: \t\tlet sum = 0;\n', '30: \ttotal() {\n31: \t\tlet sum = 1;\n'),
    expect: { refused: [/not found: .*its lines start with line numbers \(`30:`\) that are not part of the file, so leave them out; lines 12-13 of the file are now:\n```\n\ttotal\(\) \{\n\t\tlet sum = 0;\n```/s], notQuoted: ['30: ', '31: '] },
  },
  {
    mode: 'line-numbers', what: 'a dict with numeric keys, copied right: matched exactly, the keys kept',
    answer: answer('names.py', "    1: 'one',\n    2: 'two',\n", "    1: 'one',\n    2: 'deux',\n", 'python'),
    expect: { files: { 'names.py': sub(NAMES_PY, "'two'", "'deux'") }, matchedBy: { exact: 1 } },
  },
  {
    mode: 'line-numbers', what: 'a dict with numeric keys, indentation dropped: matched by indentation, never stripped',
    answer: answer('names.py', "2: 'two',\n3: 'three',\n", "2: 'two',\n3: 'trois',\n", 'python'),
    expect: { files: { 'names.py': sub(NAMES_PY, "'three'", "'trois'") }, matchedBy: { indentation: 1 } },
  },
  {
    mode: 'line-numbers', what: 'a dict line whose key happens to be its line number, with a changed value: never stripped, refused',
    answer: answer('names.py', "2: 'too',\n3: 'three',\n", "2: 'two',\n3: 'three',\n", 'python'),
    expect: { refused: [/was not found: line 3 of the file has `two` where line 1 of your SEARCH has `too`; lines 3-4 of the file are now:\n```\n {4}2: .two.,\n/] },
  },
  {
    mode: 'line-numbers', what: 'mixed prefix styles: not stripped, refused',
    answer: answer('src/util.js', '1: function clamp(x, lo, hi) {\n2 |   if (x < lo) return lo;\n', '1: function clamp(x, lo, hi) {\n2 |   if (x <= lo) return lo;\n'),
    expect: { refused: [/was not found/] },
  },

  // ---- "not found" notes that help ----
  {
    mode: 'not-found', what: 'the last SEARCH line is only the beginning of the file\'s line: the whole line is quoted',
    answer: answer('src/cart.js', '\ttotal() {\n\t\tlet sum = 0;\n\t\tfor (const item of\n', '\ttotal() {\n\t\tlet sum = 0;\n\t\tfor (const item of this.items ?? []) {\n'),
    expect: { refused: [/not found: line 3 of your SEARCH is only the beginning of line 14 of the file; lines 12-14 of the file are now:\n```\n\ttotal\(\) \{\n\t\tlet sum = 0;\n\t\tfor \(const item of this\.items\) \{\n```/] },
  },
  {
    mode: 'not-found', what: 'a changed word, Python',
    answer: answer('prices.py', 'def total(prices, discount=0):\n    subtotal = sum(price)\n', 'def total(prices, discount=0):\n    subtotal = sum(prices) or 0\n', 'python'),
    expect: { refused: [/not found: line 9 of the file has `prices` where line 2 of your SEARCH has `price`; lines 8-9 of the file are now:\n```\ndef total\(prices, discount=0\):\n {4}subtotal = sum\(prices\)\n```/], notQuoted: ['sum(price)\n'] },
  },
  {
    mode: 'not-found', what: 'nothing in the file looks like it',
    answer: answer('src/routes.ts', 'export function products() {\n', 'export function products() {\n  return [];\n', 'ts'),
    expect: { refused: [/was not found \(no line of the file looks like its first line\); copy the lines exactly as they are in the file now\./] },
  },
  {
    mode: 'not-found', what: 'a SEARCH that goes on past the end of the file (no final newline)',
    answer: answer('src/util.js', 'module.exports = { clamp, lerp };\nmodule.exports.default = clamp;\n', 'module.exports = { clamp, lerp, default: clamp };\n'),
    expect: { refused: [/not found: the file ends at line 11, before line 2 of your SEARCH; line 11 of the file is now:\n```\nmodule\.exports = \{ clamp, lerp \};\n```/] },
  },
  {
    mode: 'not-found', what: 'a line the model wrote longer than the file\'s',
    answer: answer('src/invoice.ts', 'export interface Line {\n  price: number;\n  qty: number; // quantity\n', 'export interface Line {\n  price: number;\n  qty: number;\n  sku?: string;\n', 'ts'),
    expect: { refused: [/not found: line 3 of your SEARCH goes on past the end of line 3 of the file; lines 1-3 of the file are now:\n```\nexport interface Line \{\n  price: number;\n  qty: number;\n```/], notQuoted: ['// quantity\n```'] },
  },
  {
    mode: 'not-found', what: 'a tab file, a SEARCH with spaces and a changed word: the tabs of the file are quoted',
    answer: answer('src/cart.js', '    count() {\n        return this.items.size;\n', '    count() {\n        return this.items.length;\n'),
    expect: { refused: [/line 21 of the file has `length` where line 2 of your SEARCH has `size`; lines 20-21 of the file are now:\n```\n\tcount\(\) \{\n\t\treturn this\.items\.length;\n```/] },
  },
];

describe('imperfect answers (issue 32 corpus): each lands exactly where it should or is refused with a note', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-imperfect-'));
    for (const [rel, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const tally = { applied: 0, refused: 0, wrong: 0 };
  after(() => {
    // The corpus's own promise: at least 60 answers, none applied in a wrong place.
    assert.ok(CASES.length >= 60, `${CASES.length} answers`);
    assert.equal(tally.wrong, 0);
  });

  for (const c of CASES) {
    it(`[${c.mode}] ${c.what}`, async () => {
      const policy = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
      const parsed = parseEditBlocks(c.answer);
      const matchedBy: Record<string, number> = {};
      const result = parsed.errors.length
        ? { ok: false as const, reason: parsed.errors.join(' ') }
        : await applyEditBlocks(root, parsed.blocks, policy, undefined, undefined, {}, matchedBy);
      const now = (rel: string) => (fs.existsSync(path.join(root, rel)) ? fs.readFileSync(path.join(root, rel), 'utf8') : null);
      if ('files' in c.expect) {
        if (!result.ok) tally.wrong++;
        assert.ok(result.ok, `refused: ${(result as { reason: string }).reason}`);
        for (const [rel, text] of Object.entries(c.expect.files)) {
          if (now(rel) !== text) tally.wrong++;
          assert.equal(now(rel), text, rel);
        }
        for (const [rel, text] of Object.entries(FILES)) if (!(rel in c.expect.files)) assert.equal(now(rel), text, `${rel} is untouched`);
        assert.deepEqual(matchedBy, c.expect.matchedBy);
        tally.applied++;
      } else {
        if (result.ok) tally.wrong++;
        assert.equal(result.ok, false, 'the answer should be refused');
        const reason = (result as { reason: string }).reason;
        for (const re of c.expect.refused) assert.match(reason, re);
        for (const q of c.expect.notQuoted ?? []) assert.ok(!reason.includes(q), `the note repeats the model's ${JSON.stringify(q)}: ${reason}`);
        for (const [rel, text] of Object.entries(FILES)) assert.equal(now(rel), text, `${rel} is untouched`);
        tally.refused++;
      }
    });
  }

  it('the edit format the model is given says, in one paragraph, what else is accepted and what is refused', () => {
    const paragraph = systemPrompt(false).split('\n').find((l) => l.startsWith('Also accepted'));
    assert.ok(paragraph, 'the paragraph is in the system prompt');
    for (const what of ['indentation', 'blank lines', '// ... existing code ...', 'info string', 'unified diff', 'line numbers', 'refused']) assert.ok(paragraph.includes(what), what);
    assert.ok(paragraph.length < 400, `${paragraph.length} characters: every prompt carries it`);
  });
});

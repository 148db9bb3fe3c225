// Edits to the code under test that disarm the checks instead of fixing the code: replacing an assertion
// (`assert.equal = () => {}`), hooking the module loader, swallowing process.exit. Protected test files cannot be
// edited, so a model that wants a cheap green reaches for these from a source file. They are refused by what the
// added lines say, whatever file they are in.

const ASSERT_MODULES = String.raw`(?:node:)?(?:assert(?:\/strict)?|chai|expect|should|power-assert|node:test|vitest|@jest\/globals)`;
const ALIAS_REQUIRE = new RegExp(String.raw`(?:const|let|var)\s+(\w+)\s*=\s*require\(\s*['"]${ASSERT_MODULES}['"]\s*\)`, 'g');
const ALIAS_IMPORT = new RegExp(String.raw`import\s+(?:\*\s+as\s+)?(\w+)(?:\s*,\s*\{[^}]*\})?\s+from\s+['"]${ASSERT_MODULES}['"]`, 'g');
const DESTRUCTURED = new RegExp(String.raw`(?:const|let|var|import)\s*\{([^}]*)\}\s*(?:=\s*require\(\s*|from\s+)['"]${ASSERT_MODULES}['"]`, 'g');

interface Rule {
  test: RegExp;
  what: string;
}

const FIXED_RULES: Rule[] = [
  { test: new RegExp(String.raw`require\(\s*['"]${ASSERT_MODULES}['"]\s*\)(?:\s*\.\s*\w+)+\s*=(?!=)`), what: 'replaces part of an assertion library' },
  { test: /(?<![\w.$])(?:assert|expect|chai|should)(?:\s*\.\s*\w+)+\s*=(?!=)/, what: 'replaces part of an assertion library' },
  { test: /\bObject\.(?:assign|defineProperty|defineProperties|setPrototypeOf)\(\s*(?:assert|expect|chai|require\(\s*['"](?:node:)?assert)/, what: 'rewrites an assertion library' },
  { test: /\bModule\s*\.\s*(?:prototype\s*\.\s*require|_load|_resolveFilename|_compile)\s*=(?!=)/, what: 'hooks the module loader' },
  { test: /\brequire\s*\.\s*cache\s*\[[^\]]*\]\s*=(?!=)/, what: 'plants a module in the require cache' },
  { test: /\bprocess\s*\.\s*(?:exit|reallyExit|abort)\s*=(?!=)/, what: 'replaces process.exit, which the test runner reports failures with' },
  { test: /\b(?:unittest\s*\.\s*)?TestCase\s*\.\s*(?:assert\w*|fail\w*)\s*=(?!=)/, what: "replaces one of unittest's assertions" },
  { test: /\bpytest\s*\.\s*(?:fail|raises|approx|skip|xfail|mark)\s*=(?!=)/, what: 'replaces part of pytest' },
  { test: /\bbuiltins\s*\.\s*(?:AssertionError|__import__)\s*=(?!=)/, what: 'replaces a Python builtin the tests rely on' },
];

/**
 * Why the lines `added` to `rel` disarm the tests, or null. `context` is the whole new file, where an alias of an
 * assertion module (`const A = require('assert')`) may be declared.
 */
export function tamperReason(rel: string, added: string, context: string): string | null {
  for (const rule of FIXED_RULES) {
    const m = rule.test.exec(added);
    if (m) return refusal(rel, rule.what, m[0]);
  }
  const aliases = new Set<string>();
  for (const re of [ALIAS_REQUIRE, ALIAS_IMPORT]) for (const m of context.matchAll(re)) aliases.add(m[1]);
  for (const m of context.matchAll(DESTRUCTURED)) {
    for (const part of m[1].split(',')) {
      const name = part.split(/\s*(?::|\bas\b)\s*/).pop()?.trim();
      if (name && /^\w+$/.test(name)) aliases.add(name);
    }
  }
  for (const alias of aliases) {
    const m = new RegExp(String.raw`(?<![\w.$])${alias}(?:\s*\.\s*\w+)+\s*=(?!=)`).exec(added);
    if (m) return refusal(rel, 'replaces part of an assertion library', m[0]);
  }
  return null;
}

function refusal(rel: string, what: string, code: string): string {
  return `${rel}: the edit ${what} (\`${code.trim().replace(/\s+/g, ' ').slice(0, 80)}\`), which would make tests pass without the code being right; fix the code under test instead.`;
}

/** Lines of `after` that are not lines of `before` (a line moved is not added). */
export function addedLines(before: string | null, after: string): string {
  const had = new Set((before ?? '').split(/\r?\n/));
  return after.split(/\r?\n/).filter((l) => !had.has(l)).join('\n');
}

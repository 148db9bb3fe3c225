// Edits to the code under test that disarm the checks instead of fixing the code: replacing an assertion
// (`assert.equal = () => {}`), hooking the module loader, swallowing process.exit. Protected test files cannot be
// edited, so a model that wants a cheap green reaches for these from a source file. They are refused by what the
// added lines say, whatever file they are in.
import { tamperRules } from '../../runners/registry';
import type { TamperRule } from '../../runners/runner';

// The runners' rooms name the rules and the assertion modules (runners/common/javascript.ts, …/python.ts, pytest's own).
const RUNNERS_SAY = tamperRules();
const ASSERT_MODULES = String.raw`(?:node:)?(?:${RUNNERS_SAY.assertionModules.map(escapeRegExp).join('|')})`;
const ALIAS_REQUIRE = new RegExp(String.raw`(?:const|let|var)\s+(\w+)\s*=\s*require\(\s*['"]${ASSERT_MODULES}['"]\s*\)`, 'g');
const ALIAS_IMPORT = new RegExp(String.raw`import\s+(?:\*\s+as\s+)?(\w+)(?:\s*,\s*\{[^}]*\})?\s+from\s+['"]${ASSERT_MODULES}['"]`, 'g');
const DESTRUCTURED = new RegExp(String.raw`(?:const|let|var|import)\s*\{([^}]*)\}\s*(?:=\s*require\(\s*|from\s+)['"]${ASSERT_MODULES}['"]`, 'g');

const FIXED_RULES: readonly TamperRule[] = [
  { test: new RegExp(String.raw`require\(\s*['"]${ASSERT_MODULES}['"]\s*\)(?:\s*\.\s*\w+)+\s*=(?!=)`), what: 'replaces part of an assertion library' },
  ...RUNNERS_SAY.rules,
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

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

// What the JavaScript runners (node --test, mocha, jest, vitest) share: the files npm and yarn read before any test,
// package.json's test scripts and runner settings, the assertion libraries their tests use and the ways to disarm
// them from a source file, and what coverage tools write. Facts only: no room's code.
import type { ProtectedPart, TamperRule } from '../runner';

/** What npm/yarn read before any test: `script-shell`, `node-options`. */
export const NPM_CONFIG = ['**/.npmrc', '**/.yarnrc', '**/.yarnrc.yml'];

const PACKAGE_KEYS = ['jest', 'mocha', 'ava', 'vitest', 'c8', 'nyc'];

function packageTestParts(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object') return null;
  const pkg = json as Record<string, unknown>;
  const scripts = pkg.scripts && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : {};
  // `test`, `pretest`, `posttest` and `test:*` decide what `npm test` runs.
  const testScripts = Object.keys(scripts).filter((k) => /^(pre|post)?test(:|$)/.test(k)).sort().map((k) => [k, scripts[k]]);
  const config = PACKAGE_KEYS.filter((k) => k in pkg).map((k) => [k, pkg[k]]);
  return JSON.stringify([testScripts, config]);
}

/** One part for every JavaScript runner: each lists it, the registry keeps it once. */
export const PACKAGE_TEST_PART: ProtectedPart = { file: 'package.json', what: 'the test scripts and test-runner settings of package.json', extract: packageTestParts };

/** The assertion libraries any JavaScript runner's tests may use; a runner adds its own (`vitest`, `@jest/globals`). */
export const JS_ASSERTION_MODULES = ['assert', 'assert/strict', 'chai', 'expect', 'should', 'power-assert'];

/** Replacing an assertion library, the module loader or process.exit from a source file: a green that proves nothing. */
export const JS_TAMPER: readonly TamperRule[] = [
  { test: /(?<![\w.$])(?:assert|expect|chai|should)(?:\s*\.\s*\w+)+\s*=(?!=)/, what: 'replaces part of an assertion library' },
  { test: /\bObject\.(?:assign|defineProperty|defineProperties|setPrototypeOf)\(\s*(?:assert|expect|chai|require\(\s*['"](?:node:)?assert)/, what: 'rewrites an assertion library' },
  { test: /\bModule\s*\.\s*(?:prototype\s*\.\s*require|_load|_resolveFilename|_compile)\s*=(?!=)/, what: 'hooks the module loader' },
  { test: /\brequire\s*\.\s*cache\s*\[[^\]]*\]\s*=(?!=)/, what: 'plants a module in the require cache' },
  { test: /\bprocess\s*\.\s*(?:exit|reallyExit|abort)\s*=(?!=)/, what: 'replaces process.exit, which the test runner reports failures with' },
];

/** What coverage tools around a JavaScript runner write (c8 and jest into coverage/, nyc into .nyc_output/). */
export const JS_REGENERATED = ['coverage/**', '.nyc_output/**'];

// The small JavaScript repository most scenarios start from: six arithmetic functions, one `node --test` test each.
// A scenario chooses which functions are wrong; the scripted model's edits name a function and its new body.
import { block } from './scenario';
import type { ModelTurn } from './scenario';

export const RIGHT: Record<string, string> = { add: 'a + b', sub: 'a - b', mul: 'a * b', div: 'a / b', pow: 'a ** b', mod: 'a % b' };
/** A wrong body per function, each failing its test. */
export const WRONG: Record<string, string> = { add: 'a - b', sub: 'a + b', mul: 'a + b', div: 'a * b', pow: 'a * b', mod: 'a / b' };
const TESTS: Record<string, string> = {
  add: 'calc.add(2, 3), 5',
  sub: 'calc.sub(7, 3), 4',
  mul: 'calc.mul(3, 4), 12',
  div: 'calc.div(12, 4), 3',
  pow: 'calc.pow(2, 5), 32',
  mod: 'calc.mod(7, 4), 3',
};

export const CALC = 'src/calc.js';
export const CALC_TEST = 'test/calc.test.js';

export function calcSource(bodies: Record<string, string>, extra = ''): string {
  const fns = Object.keys(RIGHT).map((name) => `function ${name}(a, b) {\n  return ${bodies[name] ?? RIGHT[name]};\n}\n`);
  return `'use strict';\n${extra}\n${fns.join('\n')}\nmodule.exports = { ${Object.keys(RIGHT).join(', ')} };\n`;
}

export function calcTests(extraTests = ''): string {
  const lines = Object.entries(TESTS).map(([name, args]) => `test('${name}', () => assert.strictEqual(${args}));`);
  return `'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst calc = require('../src/calc');\n\n${lines.join('\n')}\n${extraTests}`;
}

export function packageJson(testScript = 'node --test'): string {
  return `${JSON.stringify({ name: 'calc', version: '1.0.0', private: true, scripts: { test: testScript } }, null, 2)}\n`;
}

/** The repository with these functions wrong. */
export function calcRepo(wrong: string[], opts: { testScript?: string; extraSource?: string; extraTests?: string } = {}): Record<string, string> {
  const bodies = Object.fromEntries(wrong.map((name) => [name, WRONG[name]!]));
  return {
    'package.json': packageJson(opts.testScript),
    [CALC]: calcSource(bodies, opts.extraSource),
    [CALC_TEST]: calcTests(opts.extraTests),
  };
}

/** The body `name` has now in the workspace, or null when the file or function is gone. */
export function currentBody(turn: ModelTurn, name: string): string | null {
  const src = turn.read(CALC);
  const m = src && new RegExp(`function ${name}\\(a, b\\) \\{\\n  return (.*);\\n`).exec(src);
  return m ? m[1]! : null;
}

/** A block that gives `name` this body, written against the workspace as it is (a no-op when it already has it). */
export function setBody(turn: ModelTurn, name: string, body: string): string {
  const now = currentBody(turn, name) ?? WRONG[name]!;
  return block(CALC, `function ${name}(a, b) {\n  return ${now};`, `function ${name}(a, b) {\n  return ${body};`);
}

export const fix = (turn: ModelTurn, name: string) => setBody(turn, name, RIGHT[name]!);

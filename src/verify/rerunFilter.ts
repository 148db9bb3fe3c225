// The test command narrowed to a few tests, with the runner's own filter, for re-running tests that newly failed
// (is the edit to blame, or is the test flaky?). A filter is only an optimization: the caller checks that the
// narrowed run reported the tests it asked for, and runs the whole command otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunnerFormat } from '../ports/verifier';

export interface NarrowedCommand {
  command: string;
  /** Extra environment (node_modules/.bin on PATH when an npm script was run directly). */
  env?: NodeJS.ProcessEnv;
}

const NPM_TEST = /^(?:npm (?:run(?:-script)? )?test|npm t|pnpm (?:run )?test|yarn (?:run )?test)$/;
// Anything that makes a command line more than one program with its arguments.
const COMPOUND = /&&|\|\||[;|`<>]|\$\(|\n/;

/** null when the command's runner has no filter Greenloop knows, or the command is too complex to extend safely. */
export function narrowTestCommand(testCommand: string, cwd: string, runner: RunnerFormat | null, ids: readonly string[]): NarrowedCommand | null {
  if (ids.length === 0 || runner === null) return null;
  let base = testCommand.trim();
  let env: NodeJS.ProcessEnv | undefined;
  if (NPM_TEST.test(base)) {
    // `npm test -- flags` puts the flags after the script's file arguments, where `node --test` reads them as
    // files; the script itself, run with npm's PATH, takes them where they belong.
    const script = npmTestScript(cwd);
    if (!script) return null;
    base = script;
    env = { ...process.env, PATH: `${path.join(cwd, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
  }
  if (COMPOUND.test(base)) return null;
  const narrowed = withFilter(base, runner, ids);
  return narrowed === null ? null : { command: narrowed, env };
}

function withFilter(base: string, runner: RunnerFormat, ids: readonly string[]): string | null {
  const leaves = [...new Set(ids.map((id) => id.split(' > ').pop() ?? id))];
  const anyLeaf = `(?:${leaves.map(escapeRegExp).join('|')})`;
  if (/\bnode\b.*\s--test(?:\s|$)/.test(base) && (runner === 'node' || runner === 'tap')) {
    // node 20 matches the pattern against each test's own name; suites always run their children. A top-level
    // test may itself be named "a > b": its whole ID is its own name, so the whole IDs are alternatives too.
    // A function replacement: "$'" in the pattern must not be read as a replacement token.
    const ownNames = [...new Set([...leaves, ...ids.filter((id) => id.includes(' > '))])];
    const filter = ` --test-name-pattern=${shellQuote(`^(?:${ownNames.map(escapeRegExp).join('|')})$`)}`;
    return base.replace(/(\s--test)(?=\s|$)/, (flag) => `${flag}${filter}`);
  }
  if (runner === 'mocha' && /\bmocha\b/.test(base)) return `${base} --grep ${shellQuote(anyLeaf)}`;
  if ((runner === 'jest' && /\bjest\b/.test(base)) || (runner === 'vitest' && /\bvitest\b/.test(base))) return `${base} -t ${shellQuote(anyLeaf)}`;
  if (runner === 'pytest' && /\bpytest\b/.test(base)) {
    // -k takes an expression of names; parametrized ids ("test_x[a b]") are narrowed to their function.
    const names = [...new Set(leaves.map((l) => l.replace(/\[.*$/, '')))];
    if (!names.every((n) => /^[A-Za-z_]\w*$/.test(n))) return null;
    return `${base} -k ${shellQuote(names.join(' or '))}`;
  }
  if (runner === 'go' && /\bgo test\b/.test(base)) {
    // A subtest's parent runs all of its subtests: filter by the top-level test.
    const tops = [...new Set(ids.map((id) => id.split(' > ')[0]))];
    return `${base} -run ${shellQuote(`^(?:${tops.map(escapeRegExp).join('|')})$`)}`;
  }
  if (runner === 'cargo' && /\bcargo test\b/.test(base)) {
    // Doc tests ("src/lib.rs - add (line 5)") have no filter name of their own.
    if (ids.some((id) => / - .* \(line \d+\)$/.test(id))) return null;
    const names = ids.map((id) => shellQuote(id.split(' > ').join('::'))).join(' ');
    return base.includes(' -- ') ? `${base} ${names}` : `${base} -- ${names}`;
  }
  return null;
}

function npmTestScript(cwd: string): string | null {
  try {
    const script = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8'))?.scripts?.test;
    return typeof script === 'string' && script.trim() ? script.trim() : null;
  } catch {
    return null;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** POSIX single quotes: everything literal, a quote written as '\''. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

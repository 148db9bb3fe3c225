// Reads a command the agent ran as a test run, with Greenloop's own output parsers: which tests failed, and whether
// the suite loaded. Only a command whose output a parser recognises as a runner's, naming at least one test or a
// count, is a test run; anything else (a `cat`, a build, a `git diff`) is not.
import { parseOutput } from '../../runners/parseOutput';
import { runnerHints } from '../../runners/runnerHint';
import { normalizeTestId } from '../../base/normalize';
import { failureGist } from '../../base/failureGist';

export interface AgentTestRun {
  /** Failing test IDs as the loop compares them, and a marker for a suite that did not load. */
  failing: Set<string>;
  /** The failing tests with what each said (failureGist): two runs with equal outcomes told the agent the same thing. */
  outcome: string;
}

/** Argument names agents' shell tools give the command (qwen, Claude Code: `command`; Codex: `cmd`, or a list). */
const COMMAND_ARGS = ['command', 'cmd'] as const;

/** The command a tool call ran, or null when the call is no shell command (a file read, an edit). */
export function commandOf(args: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  for (const name of COMMAND_ARGS) {
    const value = (parsed as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.trim()) return value;
    if (Array.isArray(value) && value.length && value.every((v) => typeof v === 'string')) return value.join(' ');
  }
  return null;
}

/**
 * The test run a command's output shows, or null when the output is no test runner's. The command, when known, says
 * whose output to expect and where the runner started (unittest names a test's module, found from there).
 */
export function readTestRun(output: string, cwd: string, command?: string): AgentTestRun | null {
  const parsed = parseOutput(output, 'auto', command ? runnerHints(command, null) : [], { cwd, command });
  if (parsed.runner === null || parsed.runner === 'tsc') return null;
  const counted = parsed.tests?.length || parsed.failing.length || parsed.passedCount !== null || parsed.failedCount !== null;
  if (!counted && !parsed.loadError) return null;
  const failing = new Set(parsed.failing.map((f) => normalizeTestId(f.id, { cwd })));
  if (parsed.loadError) failing.add('(the test suite did not load)');
  // A runner that counts failures without naming them (pytest -q, go without -v): the count stands for the set.
  const unnamed = (parsed.failedCount ?? 0) - parsed.failing.length;
  for (let i = 0; i < unnamed; i++) failing.add(`(unnamed failure ${i + 1})`);
  const said = parsed.failing.map((f) => `${normalizeTestId(f.id, { cwd })}\0${failureGist(f.message ?? '', cwd)}`).sort();
  return { failing, outcome: [...said, `loaded: ${!parsed.loadError}`, `unnamed: ${Math.max(0, unnamed)}`].join('\u0001') };
}

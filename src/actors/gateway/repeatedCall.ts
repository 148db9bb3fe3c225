// "The same tool called with the same arguments again, with the test result unchanged in between, is a poll without
// progress" (OpenClaw's generic-repeat rule, issue 38). An agent that repeats an edit whose text is still there after
// it (each repeat appending one more comment) changes the files every round, so neither its steps nor the files
// repeat; what repeats is the call. When every call that may change the workspace since the agent's last test run is
// one it had made before, and every test run since that earlier call — the one after the repeat included — failed the
// same tests with the same messages, the repeat changed nothing the tests see. A repeated edit that changes what they
// say (a counter it increments: `got 1`, then `got 2`) is never taken for one; nor is one with a change in the tests
// between (the agent fixed something else meanwhile), nor the same edit in another file, which is another call.
import type { AgentCall } from '../../ports/actor';
import type { AgentTestRun } from './agentTestRun';
import { changesState } from './changesState';
import type { ToolExchange } from './toolExchanges';

/** One answered tool call, and the test run its result shows (null: not a test run). */
export interface CallStep {
  x: ToolExchange;
  run: AgentTestRun | null;
}

const BRIEF_CHARS = 240;

interface TestedRun { key: string; outcome: string; streakFrom: number }

/**
 * The repeated call the agent was just told the result of, or null: the last test run must be among the results it
 * was just given (the rule is said once, on the request that follows them).
 */
export function repeatedCall(steps: readonly CallStep[], cwd: string): AgentCall | null {
  /** Calls that may change files, made before the last test run, each with the number of test runs before it. */
  const made = new Map<string, number>();
  let since: ToolExchange[] = [];
  let runs = 0;
  /** The last test run, and the number of the first run of the streak of runs equal to it. */
  let last: TestedRun | null = null;
  let found: AgentCall | null = null;
  for (const { x, run } of steps) {
    if (!run) {
      if (changesState(x.name, x.args)) since.push(x);
      continue;
    }
    runs += 1;
    // Another test command is another measurement; a green run is no stall (the agent is done).
    const same: boolean = last !== null && last.key === x.key && last.outcome === run.outcome;
    const streakFrom: number = same && last ? last.streakFrom : runs;
    const unchangedSince = (c: ToolExchange) => made.has(c.key) && made.get(c.key)! + 1 >= streakFrom;
    if (x.latest && same && run.failing.size > 0 && since.length > 0 && since.every(unchangedSince)) {
      found = { key: since.at(-1)!.key, call: briefOf(since.at(-1)!, cwd) };
    }
    for (const c of since) made.set(c.key, runs - 1);
    since = [];
    last = { key: x.key, outcome: run.outcome, streakFrom };
  }
  return found;
}

/** The calls of these steps that may change files, each once, in the order first made. */
export function changingCalls(steps: readonly CallStep[], cwd: string): AgentCall[] {
  const out = new Map<string, AgentCall>();
  for (const { x, run } of steps) {
    if (!run && !out.has(x.key) && changesState(x.name, x.args)) out.set(x.key, { key: x.key, call: briefOf(x, cwd) });
  }
  return [...out.values()];
}

/** `edit {"file_path":"calc.js","new_string":"…","old_string":"…"}`: readable in a prompt, one line, the workspace left out. */
export function briefOf(x: ToolExchange, cwd: string): string {
  const prefix = cwd.endsWith('/') ? cwd : `${cwd}/`;
  const text = `${x.name} ${x.args.split(prefix).join('').trim().replace(/\r?\n/g, '\\n')}`;
  return text.length > BRIEF_CHARS ? `${text.slice(0, BRIEF_CHARS - 1)}…` : text;
}

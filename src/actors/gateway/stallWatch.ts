// Sees an agent that works without getting anywhere, where its requests and steps never repeat (each repeat of the
// same wrong edit appends one more comment, say): three witnesses, read from the tool calls and results of the
// conversation the agent sends.
// - Its own test runs, read with Greenloop's parsers: a run of the same test command that fails no fewer tests than
//   the best run before it is a run without progress. NO_PROGRESS_RUNS of them in a row and the attempt has stalled,
//   as a loop without progress for `patience` attempts has; any run that fails fewer tests starts the count again,
//   so an agent that makes progress between its test runs is never stopped by this.
// - "Known poll, no progress" (as OpenClaw's tool-loop detection has it): the same call — tool and arguments — whose
//   result, timings and pids aside, has not changed since its last call. UNCHANGED_REPEATS such repeats in a row and
//   nothing the agent does in between changes what it sees — unless a test run in between failed fewer tests: an
//   agent re-reading the same test file while it fixes one test after another is getting somewhere.
// - The same poll told by the files (issue 30): a test run on exactly the files the agent's last test run ran on, by
//   the same command and failing the same tests, is a known poll at once — whatever the agent did in between (an edit
//   that failed, a read) changed nothing. The workspace's state is read as each test run's result arrives, so a run
//   that follows a real edit never matches the one before it.
// - The same call made again (issue 38, repeatedCall.ts): an edit the agent had already made, repeated between two of
//   its test runs that fail the same tests with the same messages, changed nothing the tests see, though the files
//   changed (each repeat appending one more comment).
// All look only at results the agent has just been given, so each is said once, on the request that follows them.
import { createHash } from 'node:crypto';
import type { AgentCall, WorkspaceState } from '../../ports/actor';
import { comparableText } from './conversationStep';
import { toolExchanges, type ToolExchange } from './toolExchanges';
import { commandOf, readTestRun, type AgentTestRun } from './agentTestRun';
import { changingCalls, repeatedCall, type CallStep } from './repeatedCall';

export type Stall = 'tests-stalled' | 'unchanged-result' | 'same-files-retested' | 'repeated-tool-call';

/**
 * A poll of a command still running (Codex's exec session): the agent waits for slow tests, which is no repeat, and
 * the output so far is no test run yet.
 */
const STILL_RUNNING = /\bProcess running with session ID\b/;

/** Test runs in a row without fewer failing tests than the best run of that command: the loop's default patience. */
export const NO_PROGRESS_RUNS = 2;
/** Results in a row equal to the one before of the same call: the call came back the same three times. */
export const UNCHANGED_REPEATS = 2;

interface TestStreak { best: number; withoutProgress: number }

/** One test run of the agent's: which call, which tests failed, and the workspace it ran on (null: not known). */
interface TestedState { call: string; failing: string; state: string | null }

export class StallWatch {
  /** Parsed outputs by their text's hash: an agent resends every earlier result with each request. */
  private readonly runs = new Map<string, AgentTestRun | null>();
  private readonly comparable = new Map<string, string>();
  /** Test runs already taken into account, by call id: a side request resends the same run, which is no new run. */
  private readonly testRunsSeen = new Set<string>();
  private lastTested: TestedState | null = null;
  private readonly changes = new Map<string, AgentCall>();
  /** The call whose repeat was the last `repeated-tool-call`, as the agent's next prompt names it. */
  repeated: AgentCall | null = null;

  /** `workspace`: reads the workspace's state; without it the files are never compared. */
  constructor(private readonly cwd: string, private readonly workspace?: WorkspaceState) {}

  /** Whether the results the agent was just given show it stalled. */
  async check(messages: readonly object[]): Promise<Stall | null> {
    const exchanges = toolExchanges(messages, this.cwd);
    const tests = new Map<string, TestStreak>();
    const results = new Map<string, { result: string; repeats: number; progress: number }>();
    const newRuns: Array<{ x: ToolExchange; run: AgentTestRun }> = [];
    const steps: CallStep[] = [];
    /** Test runs so far that failed fewer tests than the best before them. */
    let progress = 0;
    let stall: Stall | null = null;
    exchanges.forEach((x, i) => {
      if (STILL_RUNNING.test(x.result)) return;
      const digest = createHash('sha256').update(x.result).digest('hex');
      const seen = results.get(x.key);
      const result = this.comparableOf(digest, x.result);
      const repeats = seen && seen.result === result && seen.progress === progress ? seen.repeats + 1 : 0;
      results.set(x.key, { result, repeats, progress });
      if (x.latest && repeats >= UNCHANGED_REPEATS) stall ??= 'unchanged-result';

      const command = commandOf(x.args);
      const run = command === null ? null : this.testRunOf(digest, x.result, command);
      steps.push({ x, run });
      if (!run) return;
      // Marked before any await: two requests carrying the same new run (a side request beside the main one) count it once.
      const id = x.id ?? `${i}:${digest}`;
      if (!this.testRunsSeen.has(id)) {
        this.testRunsSeen.add(id);
        newRuns.push({ x, run });
      }
      const failing = run.failing.size;
      const streak = tests.get(x.key);
      if (!streak || failing < streak.best) {
        if (streak) progress += 1;
        tests.set(x.key, { best: failing, withoutProgress: 0 });
        return;
      }
      // A green run is not a stall: the agent is done, and ends its turn by itself.
      streak.withoutProgress = failing === 0 ? 0 : streak.withoutProgress + 1;
      if (x.latest && streak.withoutProgress >= NO_PROGRESS_RUNS) stall = 'tests-stalled';
    });
    for (const c of changingCalls(steps, this.cwd)) if (!this.changes.has(c.key)) this.changes.set(c.key, c);
    const retested = await this.retested(newRuns, exchanges.at(-1), stall === null);
    // The other witnesses first: where they see the same stall, they have said so since before this rule.
    const repeat = (stall ?? retested) ? null : repeatedCall(steps, this.cwd);
    if (repeat) this.repeated = repeat;
    return stall ?? retested ?? (repeat ? 'repeated-tool-call' : null);
  }

  /** Every call of the attempt that may have changed files, each once: what the next attempt is compared with. */
  get changingCalls(): AgentCall[] {
    return [...this.changes.values()];
  }

  /**
   * Takes the agent's new test runs in order; the last of them is compared with the run before it when it is the last
   * thing the agent did (no call after it could have changed a file since it ran) and `look` allows reading the files.
   */
  private async retested(newRuns: Array<{ x: ToolExchange; run: AgentTestRun }>, last: ToolExchange | undefined, look: boolean): Promise<Stall | null> {
    let stall: Stall | null = null;
    for (const { x, run } of newRuns) {
      const before = this.lastTested;
      const now: TestedState = { call: x.key, failing: [...run.failing].sort().join('\0'), state: null };
      this.lastTested = now;
      if (!look || x !== last || !x.latest || !this.workspace) continue;
      now.state = await this.workspace().catch(() => null);
      // A green run is no stall (the agent is done); a changed file, command or result is a new fact.
      const same = run.failing.size > 0 && now.state !== null && before !== null
        && before.state === now.state && before.call === now.call && before.failing === now.failing;
      if (same) stall = 'same-files-retested';
    }
    return stall;
  }

  private testRunOf(digest: string, output: string, command: string): AgentTestRun | null {
    if (!this.runs.has(digest)) this.runs.set(digest, readTestRun(output, this.cwd, command));
    return this.runs.get(digest)!;
  }

  private comparableOf(digest: string, output: string): string {
    let text = this.comparable.get(digest);
    if (text === undefined) {
      text = createHash('sha256').update(comparableText(output, this.cwd)).digest('hex');
      this.comparable.set(digest, text);
    }
    return text;
  }
}

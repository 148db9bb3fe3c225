// The tests and failures a parser has read, one entry per test ID however often the runner names it: memory follows
// the tests, not the lines of output (a stream repeating one test's line nine million times is one entry), and each
// entry is bounded (an ID is cut at MAX_ID_CHARS). A test's entry says what the verifier makes of its reports: failed
// if any report failed, else the last report's status, in the order the IDs were first seen; a failure's is the first
// one. How often an ID was reported is counted, so several tests under one ID are still said (ParseResult.sharedIds).
import { createHash } from 'node:crypto';
import type { FailingTest, ReportedTest, TestStatus } from '../../ports/verifier';

/** Longest test ID kept: a longer title keeps its start and a hash of the whole, so two long titles stay two tests. */
export const MAX_ID_CHARS = 2000;

/**
 * A test ID as the verifier compares it: runs of whitespace collapsed ("sub  >  padded  title " and "sub > padded
 * title" are one test: reporters trim or keep a title's spaces differently), and cut at MAX_ID_CHARS. Idempotent.
 */
export function tidyTestId(id: string): string {
  const tidy = /\s\s|[^\S ]|^\s|\s$/.test(id) ? id.replace(/\s+/g, ' ').trim() : id;
  if (tidy.length <= MAX_ID_CHARS) return tidy;
  const hash = createHash('sha256').update(tidy).digest('hex').slice(0, 12);
  return `${tidy.slice(0, MAX_ID_CHARS - 16).trimEnd()} … #${hash}`;
}

/** IDs given to more than one report, with how many (ParseResult.sharedIds). */
export type SharedIds = Array<{ id: string; times: number }>;

// The lists a ReportedTests or Failures made, with the IDs it saw reported more than once: each tidy ID is in the list
// once already, so tidyResult takes the list as it is.
const tidyLists = new WeakMap<readonly object[], SharedIds>();

/** Whether this list is one a ReportedTests or a Failures made (and so holds each tidy ID once). */
export function isTidyList(list: readonly object[]): boolean {
  return tidyLists.has(list);
}

/** The IDs the ReportedTests or Failures that made this list saw reported more than once. */
export function sharedIn(list: readonly object[]): SharedIds {
  return tidyLists.get(list) ?? [];
}

/** How many times each ID was reported, for the IDs reported more than once. */
class Repeats {
  private readonly times = new Map<string, number>();

  /** `times` more reports of `id`; `seen` whether it was reported before. */
  note(id: string, seen: boolean, times: number): void {
    if (seen || times > 1) this.times.set(id, (this.times.get(id) ?? (seen ? 1 : 0)) + times);
  }

  mark<T extends object>(list: T[]): T[] {
    tidyLists.set(list, [...this.times].map(([id, times]) => ({ id, times })));
    return list;
  }
}

/** Failures as a parser reads them: the first of each ID is kept (and its message), the others only counted. */
export class Failures {
  private readonly byId = new Map<string, FailingTest>();
  private readonly repeats = new Repeats();

  /** One failure; false when its ID failed before (it is counted, not kept). */
  add(failure: FailingTest): boolean {
    const id = tidyTestId(failure.id);
    const seen = this.byId.has(id);
    this.repeats.note(id, seen, 1);
    if (!seen) this.byId.set(id, id === failure.id ? failure : { ...failure, id });
    return !seen;
  }

  get size(): number {
    return this.byId.size;
  }

  list(): FailingTest[] {
    return this.repeats.mark([...this.byId.values()]);
  }
}

export class ReportedTests {
  private readonly statuses = new Map<string, TestStatus>();
  /** How many times each ID reported more than once was reported (only those: bounded by the distinct tests). */
  private readonly repeats = new Repeats();
  private readonly reportsOf: Record<TestStatus, number> = { passed: 0, failed: 0, skipped: 0 };

  /** `intern`: see LineOptions (lineParser.ts). */
  constructor(private readonly intern: (id: string) => string = (id) => id) {}

  /** `times` reports of a test (a parser that merged some already says how many); returns its tidy ID. */
  add(id: string, status: TestStatus, times = 1): string {
    const key = this.intern(tidyTestId(id));
    const was = this.statuses.get(key);
    this.reportsOf[status] += times;
    this.repeats.note(key, was !== undefined, times);
    if (was !== 'failed') this.statuses.set(key, status);
    return key;
  }

  /**
   * A test already reported is failed after all, by the same report (pytest's test whose subtests failed was printed
   * as passed): no second report is counted. A test not reported yet is added, failed.
   */
  fail(id: string): string {
    const key = this.intern(tidyTestId(id));
    if (!this.statuses.has(key)) return this.add(id, 'failed');
    this.statuses.set(key, 'failed');
    return key;
  }

  get size(): number {
    return this.statuses.size;
  }

  /** How many reports had this status, repeats included: what a runner's own count of the same lines says. */
  reports(status: TestStatus): number {
    return this.reportsOf[status];
  }

  list(): ReportedTest[] {
    const list: ReportedTest[] = [];
    for (const [id, status] of this.statuses) list.push({ id, status });
    return this.repeats.mark(list);
  }
}

// The tests a parser has read, one entry per test ID however often the runner names it: memory follows the tests, not
// the lines of output (a stream repeating one test's line nine million times is one entry), and each entry is bounded
// (an ID is cut at MAX_ID_CHARS). An entry says what the verifier makes of the reports of one ID: failed if any
// report failed, else the last report's status; in the order the IDs were first seen.
import { createHash } from 'node:crypto';
import type { ReportedTest, TestStatus } from '../../ports/verifier';

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

// The lists a ReportedTests made: one entry per tidy ID already, so tidyResult need not build them again.
const tidyLists = new WeakSet<ReportedTest[]>();

/** Whether this list is one a ReportedTests made (and so holds each tidy ID once). */
export function isTidyList(list: ReportedTest[]): boolean {
  return tidyLists.has(list);
}

export class ReportedTests {
  /** `intern`: see LineOptions (lineParser.ts). */
  constructor(private readonly intern: (id: string) => string = (id) => id) {}

  private readonly statuses = new Map<string, TestStatus>();
  /** Reports of an ID already seen: a runner naming one test many times (nine million lines, or two tests one title). */
  repeats = 0;
  private readonly reportsOf: Record<TestStatus, number> = { passed: 0, failed: 0, skipped: 0 };

  /** One report of a test; returns its tidy ID. */
  add(id: string, status: TestStatus): string {
    const key = this.intern(tidyTestId(id));
    const was = this.statuses.get(key);
    this.reportsOf[status]++;
    if (was !== undefined) this.repeats++;
    if (was !== 'failed') this.statuses.set(key, status);
    return key;
  }

  has(id: string): boolean {
    return this.statuses.has(tidyTestId(id));
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
    tidyLists.add(list);
    return list;
  }
}

// A loop keeps a witness per attempt, and most of each is what the run before it said: the same test IDs, the same
// failures with the same messages. Handing back the earlier run's objects when they are equal keeps one copy of a
// suite's IDs in memory, not one per attempt, and saves normalizing each ID again on every run. An ID read again is
// found in the last whole run's sorted list (no map of a million IDs beside it); lists are matched against the last
// few whole runs, so an attempt rolled back, then one that ran the suite as the baseline did, still shares the
// baseline's list (and the saved run holds it once, store/sharedLists.ts).
import * as path from 'path';
import type { Diagnostic, FailingTest, LoadErrorFile } from '../ports/verifier';
import { normalizeTestId } from '../base/normalize';
import { ownCopy } from './ownCopy';

/** Whole runs whose lists a new run's are matched against. */
const RECENT_RUNS = 3;

export class RepeatedParts {
  /** Raw IDs the normalization changes (a duration or a temp path in a title: few), raw → compared. */
  private changed = new Map<string, string>();
  /** The last whole run's tests, sorted: an ID read again is this run's own string. */
  private known: readonly string[] = [];
  /** The lists of the last few whole runs, newest first, by name. */
  private lastLists = new Map<string, string[][]>();
  private lists = new Map<string, string[]>();
  private lastFailures = new Map<string, FailingTest>();
  private failures = new Map<string, FailingTest>();
  private lastLoadErrors = new Map<string, LoadErrorFile>();
  private loadErrors = new Map<string, LoadErrorFile>();
  private lastDiagnostics = new Map<string, Diagnostic>();
  private diagnostics = new Map<string, Diagnostic>();

  constructor(private readonly cwd: string) {}

  /**
   * A test ID as the loop compares it: the workspace prefix some runners put in front (node --test names a test
   * after its file's absolute path) removed, then the output's normalization (temp paths, durations, ports, pids).
   */
  testId(raw: string): string {
    const known = this.changed.get(raw) ?? this.find(raw);
    if (known !== undefined) return known;
    const id = normalizeTestId(raw.split(`${this.cwd}${path.sep}`).join(''), { cwd: this.cwd });
    if (id !== raw) this.changed.set(raw, id);
    return id;
  }

  /**
   * The last whole run's own string for this ID when it named the same test (it was normalized then: the
   * normalization leaves a normalized ID as it is), else `raw` itself. A parser keeps that string, not its copy.
   */
  intern(raw: string): string {
    return this.find(raw) ?? raw;
  }

  private find(raw: string): string | undefined {
    const known = this.known;
    let lo = 0;
    let hi = known.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const id = known[mid];
      if (id === raw) return id;
      if (id < raw) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** `list` (sorted IDs), or the equal list a recent whole run gave under the same name. */
  list(name: string, list: string[]): string[] {
    const earlier = this.lastLists.get(name)?.find((last) => last.length === list.length && last.every((id, i) => id === list[i]));
    const kept = earlier ?? list;
    this.lists.set(name, kept);
    return kept;
  }

  failure(f: FailingTest): FailingTest {
    const last = this.lastFailures.get(f.id);
    // A message is cut from the lines of its block: its own copy lets go of the rest of them.
    const kept = last && last.message === f.message && last.file === f.file ? last : { ...f, message: ownCopy(f.message) };
    this.failures.set(f.id, kept);
    return kept;
  }

  loadError(e: LoadErrorFile): LoadErrorFile {
    const last = this.lastLoadErrors.get(e.file);
    const kept = last && last.message === e.message && last.line === e.line ? last
      : { file: e.file, message: ownCopy(e.message), ...(e.line !== undefined ? { line: e.line } : {}) };
    this.loadErrors.set(e.file, kept);
    return kept;
  }

  diagnostic(d: Diagnostic): Diagnostic {
    const key = JSON.stringify([d.file, d.line, d.column, d.source, d.code, d.message]);
    const kept = this.lastDiagnostics.get(key) ?? d;
    this.diagnostics.set(key, kept);
    return kept;
  }

  /**
   * A run has been read. A whole run's parts are what the next run is compared with; a narrowed re-run's few
   * tests would only push the whole suite's out, so they are dropped.
   */
  endRun(whole: boolean): void {
    if (whole) {
      this.known = this.lists.get('ran') ?? [];
      // Titles the normalization changed that are no longer reported would pile up run after run.
      if (this.changed.size > 2 * this.known.length + 10_000) this.changed = new Map();
      for (const [name, list] of this.lists) {
        const recent = (this.lastLists.get(name) ?? []).filter((l) => l !== list);
        this.lastLists.set(name, [list, ...recent].slice(0, RECENT_RUNS));
      }
      this.lastFailures = this.failures;
      this.lastLoadErrors = this.loadErrors;
      this.lastDiagnostics = this.diagnostics;
    }
    this.lists = new Map();
    this.failures = new Map();
    this.loadErrors = new Map();
    this.diagnostics = new Map();
  }
}

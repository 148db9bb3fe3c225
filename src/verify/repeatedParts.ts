// A loop keeps a witness per attempt, and most of each is what the run before it said: the same test IDs, the same
// failures with the same messages. Handing back the earlier run's objects when they are equal keeps one copy of a
// 20,000-test suite's IDs in memory, not one per attempt, and saves normalizing each ID again on every run.
import * as path from 'path';
import type { Diagnostic, FailingTest, LoadErrorFile } from '../ports/verifier';
import { normalizeTestId } from '../base/normalize';
import { ownCopy } from './ownCopy';

export class RepeatedParts {
  /** Raw ID → compared ID, from the last whole run, and as read in this one. */
  private lastIds = new Map<string, string>();
  private ids = new Map<string, string>();
  private lastLists = new Map<string, string[]>();
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
    let id = this.ids.get(raw) ?? this.lastIds.get(raw);
    if (id === undefined) id = normalizeTestId(raw.split(`${this.cwd}${path.sep}`).join(''), { cwd: this.cwd });
    this.ids.set(raw, id);
    return id;
  }

  /** `list` (sorted IDs), or the equal list the last run gave under the same name. */
  list(name: string, list: string[]): string[] {
    const last = this.lastLists.get(name);
    const same = last !== undefined && last.length === list.length && last.every((id, i) => id === list[i]);
    const kept = same ? last : list;
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
    const kept = last && last.message === e.message ? last : { file: e.file, message: ownCopy(e.message) };
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
      this.lastIds = this.ids;
      this.lastLists = this.lists;
      this.lastFailures = this.failures;
      this.lastLoadErrors = this.loadErrors;
      this.lastDiagnostics = this.diagnostics;
    }
    this.ids = new Map();
    this.lists = new Map();
    this.failures = new Map();
    this.loadErrors = new Map();
    this.diagnostics = new Map();
  }
}

// The Testing view and the Problems view during a run: a TestController lists the tests the run's witness names
// (failing with message and file:line, green again as passed) and a DiagnosticCollection holds the type errors while
// the run is on. Both follow the run's state on every engine event; testingModel.ts decides what they show.
import * as path from 'path';
import * as vscode from 'vscode';
import type { RunServiceApi, RunView } from '../run/runServiceApi';
import { expectedActual, fileItemId, focusForSelection, problemsByFile, testEntries } from './testingModel';
import type { TestEntry } from './testingModel';

export class TestingView implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('greenloop', 'Greenloop');
  private readonly problems = vscode.languages.createDiagnosticCollection('greenloop');
  private readonly subs: vscode.Disposable[] = [];
  /** What the tree shows now, and the folder of that run: what "Fix until green" on an item refers to. */
  private entries: TestEntry[] = [];
  private folder: vscode.Uri | undefined;
  /** Counts the runs' changes: a state read late never overwrites what a newer change showed. */
  private shown = 0;

  constructor(private readonly runs: RunServiceApi) {
    this.subs.push(runs.onDidChange((change) => {
      if (change.kind === 'event' && ['run-started', 'verified', 'finished'].includes(change.event.type)) void this.show(change.run);
    }));
    // A loop scoped to the selected failing tests (a file item: every test failing in it); the rest of the suite
    // still counts for regressions. Run on the whole tree, a loop on the whole suite.
    this.controller.createRunProfile('Fix until green (selected failing tests)', vscode.TestRunProfileKind.Run, (request) => {
      const selected = (request.include ?? []).map((item) => item.id);
      const focus = focusForSelection(selected, this.entries);
      if (selected.length && !focus.length) {
        void vscode.window.showInformationMessage('None of the selected tests is failing: nothing to fix.');
        return;
      }
      void this.runs.start(this.folder, { focus });
    }, false);
  }

  private async show(run: RunView): Promise<void> {
    const seq = ++this.shown;
    const state = await run.state();
    if (!state || seq !== this.shown) return;
    const uriOf = (rel: string) => vscode.Uri.joinPath(run.folder, ...rel.split(/[\\/]/));
    const entries = testEntries(state);
    this.entries = entries;
    this.folder = run.folder;
    this.problems.clear();
    if (state.current.witness.unmeasured) {
      // The tests gave no result: no test run is reported (it would read "0 tests"), and an older run's tests go.
      this.controller.items.replace([]);
      return;
    }
    const items = entries.map((e) => {
      const item = this.controller.createTestItem(e.id, e.label, e.file ? uriOf(e.file) : undefined);
      item.description = e.id === e.label ? undefined : e.id;
      if (e.line) item.range = new vscode.Range(e.line - 1, 0, e.line - 1, 0);
      return item;
    });
    // Tests under their file, so a whole file can be fixed at once; tests with no known file at the top.
    const files = new Map<string, vscode.TestItem>();
    const top: vscode.TestItem[] = [];
    entries.forEach((e, i) => {
      if (!e.file) {
        top.push(items[i]);
        return;
      }
      let parent = files.get(e.file);
      if (!parent) {
        parent = this.controller.createTestItem(fileItemId(e.file), e.file, uriOf(e.file));
        files.set(e.file, parent);
        top.push(parent);
      }
      parent.children.add(items[i]);
    });
    this.controller.items.replace(top);
    const report = this.controller.createTestRun(new vscode.TestRunRequest(items), `Greenloop: ${path.basename(run.folder.fsPath)}`, false);
    entries.forEach((e, i) => {
      if (e.state === 'passed') {
        report.passed(items[i]);
        return;
      }
      const text = e.message ?? 'Failing.';
      // Where the runner printed both values, VS Code's Test Results show them side by side as a diff.
      const values = expectedActual(text);
      const message = values ? vscode.TestMessage.diff(text, values.expected, values.actual) : new vscode.TestMessage(text);
      if (e.file && e.line) message.location = new vscode.Location(uriOf(e.file), new vscode.Position(e.line - 1, 0));
      if (e.state === 'errored') report.errored(items[i], message);
      else report.failed(items[i], message);
    });
    report.end();
    if (state.outcome !== 'running') return;
    for (const [file, list] of problemsByFile(state.current.witness)) {
      this.problems.set(uriOf(file), list.map((p) => {
        const d = new vscode.Diagnostic(new vscode.Range(Math.max(0, p.line - 1), Math.max(0, p.column - 1), Math.max(0, p.line - 1), Math.max(0, p.column - 1)), p.message, vscode.DiagnosticSeverity.Error);
        d.code = p.code;
        d.source = `greenloop (${p.source ?? 'tsc'})`;
        return d;
      }));
    }
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
    this.problems.dispose();
    this.controller.dispose();
  }
}

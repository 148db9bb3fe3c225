// The Testing view and the Problems view during a run: a TestController lists the tests the run's witness names
// (failing with message and file:line, green again as passed) and a DiagnosticCollection holds the type errors while
// the run is on. Both follow the run's state on every engine event; testingModel.ts decides what they show.
import * as path from 'path';
import * as vscode from 'vscode';
import type { RunServiceApi, RunView } from './runServiceApi';
import { problemsByFile, testEntries } from './testingModel';

export class TestingView implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('greenloop', 'Greenloop');
  private readonly problems = vscode.languages.createDiagnosticCollection('greenloop');
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly runs: RunServiceApi) {
    this.subs.push(runs.onDidChange((change) => {
      if (change.kind === 'event' && ['run-started', 'verified', 'finished'].includes(change.event.type)) this.show(change.run);
    }));
    // Starts a loop on the item's folder; the loop fixes the whole suite (a loop scoped to one test is not built yet).
    this.controller.createRunProfile('Fix until green', vscode.TestRunProfileKind.Run, (request) => {
      const item = request.include?.[0];
      void this.runs.start(item?.uri ? vscode.workspace.getWorkspaceFolder(item.uri)?.uri : undefined);
    }, false);
  }

  private show(run: RunView): void {
    const state = run.state;
    if (!state) return;
    const uriOf = (rel: string) => vscode.Uri.joinPath(run.folder, ...rel.split(/[\\/]/));
    const entries = testEntries(state);
    const items = entries.map((e) => {
      const item = this.controller.createTestItem(e.id, e.label, e.file ? uriOf(e.file) : undefined);
      item.description = e.id === e.label ? undefined : e.id;
      if (e.line) item.range = new vscode.Range(e.line - 1, 0, e.line - 1, 0);
      return item;
    });
    this.controller.items.replace(items);
    const report = this.controller.createTestRun(new vscode.TestRunRequest(items), `Greenloop: ${path.basename(run.folder.fsPath)}`, false);
    entries.forEach((e, i) => {
      if (e.state === 'passed') {
        report.passed(items[i]);
        return;
      }
      const message = new vscode.TestMessage(e.message ?? 'Failing.');
      if (e.file && e.line) message.location = new vscode.Location(uriOf(e.file), new vscode.Position(e.line - 1, 0));
      report.failed(items[i], message);
    });
    report.end();
    this.problems.clear();
    if (state.outcome !== 'running') return;
    for (const [file, list] of problemsByFile(state.current.witness)) {
      this.problems.set(uriOf(file), list.map((p) => {
        const d = new vscode.Diagnostic(new vscode.Range(Math.max(0, p.line - 1), Math.max(0, p.column - 1), Math.max(0, p.line - 1), Math.max(0, p.column - 1)), p.message, vscode.DiagnosticSeverity.Error);
        d.code = p.code;
        d.source = 'greenloop (tsc)';
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

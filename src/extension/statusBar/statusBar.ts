// The status bar item: progress against budgets while a run goes, its outcome after; a click opens the run.
import * as vscode from 'vscode';
import type { RunView } from '../run/runView';
import { statusView } from './statusText';

export interface TallySource {
  readonly onDidChange: vscode.Event<unknown>;
  /** The run to show: the active one, else the newest of this window. */
  current(): Pick<RunView, 'folder' | 'runId' | 'tally'> | undefined;
}

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly source: TallySource, private readonly now: () => number = Date.now) {
    this.item = vscode.window.createStatusBarItem('greenloop.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Greenloop';
    this.subs.push(source.onDidChange(() => this.update()));
    this.update();
  }

  update(): void {
    const run = this.source.current();
    if (!run) {
      this.item.hide();
      this.tick(false);
      return;
    }
    const view = statusView(run.tally, this.now());
    this.item.text = view.text;
    this.item.tooltip = new vscode.MarkdownString(view.tooltip.join('\n\n'));
    this.item.accessibilityInformation = { label: view.accessibleLabel, role: 'button' };
    this.item.backgroundColor =
      view.severity === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.command = { title: 'Open Greenloop run', command: 'greenloop.openRunPanel', arguments: [run.folder.toString(), run.runId] };
    this.item.show();
    this.tick(run.tally.outcome === 'running');
  }

  /** The elapsed time moves even when no event arrives (a long model call). */
  private tick(running: boolean): void {
    if (running && !this.timer) this.timer = setInterval(() => this.update(), 1000);
    if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  dispose(): void {
    this.tick(false);
    this.subs.forEach((s) => s.dispose());
    this.item.dispose();
  }
}

// The escalation panel's host side: one webview panel per run, revealed if already open, wired to a PanelController
// (the ready handshake and the actions) and refreshed when its run changes.
import * as vscode from 'vscode';
import type { HistoryRecord } from '../../ports/history';
import type { ChangedFile, DiffSide, HostMessage, PanelData } from '../../shared/protocol';
import { snapshotUri } from './snapshotContent';
import type { RunServiceApi } from '../run/runServiceApi';
import { buildPanelData } from './panelData';
import { PanelController } from './panelController';
import { runSetupAction } from '../run/setupActionRunner';
import type { SetupAction } from '../../shared/setupActions';
import { makeNonce, panelHtml } from './panelHtml';
import { folderName, sameFolder } from './runLookup';

export const PANEL_VIEW_TYPE = 'greenloop.escalation';
/** Engine events come in bursts (proposal, applied, verifying…); one refresh per burst is enough. */
const REFRESH_DELAY_MS = 250;

class RunPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly controller: PanelController;
  private timer: NodeJS.Timeout | undefined;
  private record: HistoryRecord | undefined;
  private disposed = false;
  /** The buttons the panel shows now: the only ones a message from it may run. */
  private setupActions: SetupAction[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly runs: RunServiceApi,
    readonly folder: vscode.Uri,
    readonly runId: string,
    onDispose: () => void,
  ) {
    this.controller = new PanelController({
      post: (message: HostMessage) => void panel.webview.postMessage(message),
      load: () => this.load(),
      retry: (hint, extra) => runs.retryWithHint(folder, runId, hint, extra),
      rollback: (to) => runs.rollback(folder, runId, to),
      accept: () => runs.accept(folder, runId),
      setupAction: async (id) => {
        const action = this.setupActions.find((a) => a.id === id);
        if (action) await runSetupAction(action, this.folder);
      },
      openDiff: (path, side) => this.openDiff(path, side),
      close: () => panel.dispose(),
    });
    this.disposables.push(
      panel.onDidDispose(() => {
        this.dispose();
        onDispose();
      }),
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.controller.receive(raw)),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.controller.hidden();
      }),
      runs.onDidChange((change) => {
        const mine = change.kind === 'history'
          ? sameFolder(change.folder, folder)
          : sameFolder(change.run.folder, folder) && change.run.runId === runId;
        if (mine) this.scheduleRefresh();
      }),
    );
  }

  private scheduleRefresh(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.controller.refresh();
    }, REFRESH_DELAY_MS);
  }

  /** VS Code's own diff editor: snapshots are served read-only by the greenloop-snapshot content provider. */
  private async openDiff(path: string, side: DiffSide): Promise<void> {
    const record = this.record;
    if (!record) return;
    const at = (snapshot: string) => snapshotUri({ folder: this.folder.toString(), snapshot, relPath: path });
    if (side === 'baseline-best') {
      await vscode.commands.executeCommand('vscode.diff', at(record.baselineSnapshot), at(record.bestSnapshot), `${path} (baseline ↔ best)`, { preview: true });
    } else {
      await vscode.commands.executeCommand('vscode.diff', at(record.bestSnapshot), vscode.Uri.joinPath(this.folder, path), `${path} (best ↔ now)`, { preview: true });
    }
  }

  private async load(): Promise<{ data: PanelData; warning?: string } | { error: string }> {
    const record = (await this.runs.run(this.folder, this.runId))?.record;
    if (!record) {
      return { error: `This run is no longer in the history of ${folderName(this.folder)} (it may have been cleared); close this panel.` };
    }
    this.record = record;
    let changed: ChangedFile[] = [];
    let warning: string | undefined;
    try {
      changed = await this.runs.changedFiles(this.folder, record.baselineSnapshot, record.bestSnapshot);
    } catch (err) {
      warning = `Could not list the files the run changed: ${(err as Error).message}`;
    }
    const data = buildPanelData(record, folderName(this.folder), changed);
    this.setupActions = data.setupActions ?? [];
    return { data, warning };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controller.dispose();
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export class EscalationPanels implements vscode.Disposable {
  private readonly open = new Map<string, RunPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runs: RunServiceApi,
  ) {}

  /** Opens the run's panel, or reveals it when it is already open. */
  show(folder: vscode.Uri, runId: string): void {
    const key = `${folder.toString()}#${runId}`;
    const existing = this.open.get(key);
    if (existing) {
      existing.panel.reveal();
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const title = `Greenloop: ${folderName(folder)}`;
    const panel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist, media],
    });
    const webview = panel.webview;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css')).toString(),
      title,
    });
    this.open.set(key, new RunPanel(panel, this.runs, folder, runId, () => this.open.delete(key)));
  }

  dispose(): void {
    for (const p of [...this.open.values()]) p.panel.dispose();
    this.open.clear();
  }
}

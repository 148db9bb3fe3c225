// The "Loop history" tree: maps historyTreeModel's plain nodes onto vscode.TreeItems and refreshes on run changes.
import * as vscode from 'vscode';
import type { HistoryRecord } from '../../ports/history';
import type { RunServiceApi, RunView } from '../run/runServiceApi';
import type { HistoryNode } from './historyTreeModel';
import { childrenOf, describeNode, nodeId, runsNewestFirst } from './historyTreeModel';
import { LostChildren } from './lostChildren';
import { ROOTS, RowsInPlace } from './rowsInPlace';
import { folderName } from './runLookup';

const COLLAPSE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;
/** Engine events arrive several per second while a run is busy; the tree redraws at most this often. */
const REFRESH_DELAY_MS = 200;
/**
 * VS Code can lose an open row's children when it asks for them while a refresh is under way (see HEAL_DELAY_MS). When
 * a run ends no next refresh comes, so the rows redrawn in the burst are redrawn once more when the events have stopped
 * for this long.
 */
const SETTLE_DELAY_MS = 1000;
/** How long VS Code has, after a refresh or a person opening a row, to ask for an open row's children (see LostChildren). */
const HEAL_DELAY_MS = 2000;

export interface RefreshTiming {
  refreshMs: number;
  settleMs: number;
  healMs?: number;
}

export class HistoryTreeProvider implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HistoryNode | HistoryNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Each folder's runs until its history changes; a live run among them is read afresh on every redraw. */
  private readonly cache = new Map<string, RunView[]>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private timer: NodeJS.Timeout | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private healTimer: NodeJS.Timeout | undefined;
  private readonly lost = new LostChildren();
  /** Rows drawn again under a new id, because VS Code lost their children; each draws open until they are asked for. */
  private readonly generation = new Map<string, number>();
  private readonly reopen = new Set<string>();
  private readonly inPlace = new RowsInPlace();
  private disposed = false;
  /** Set when reading a history failed, shown above the tree. */
  problem: string | undefined;
  onProblem: ((message: string | undefined) => void) | undefined;

  constructor(
    private readonly runs: RunServiceApi,
    private readonly timing: RefreshTiming = { refreshMs: REFRESH_DELAY_MS, settleMs: SETTLE_DELAY_MS },
  ) {
    this.disposables.push(runs.onDidChange((change) => {
      if (change.kind === 'history') this.cache.delete(change.folder.toString());
      this.scheduleRefresh();
    }));
  }

  scheduleRefresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.redraw(false);
      this.settleSoon();
    }, this.timing.refreshMs);
  }

  /**
   * One refresh once things are quiet. It follows every burst of run events (each pushes it back, so it runs once,
   * after the last): a row whose children were asked for during a refresh of the burst may have lost them.
   */
  private settleSoon(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      void this.redraw(true);
    }, this.timing.settleMs);
  }

  /** The whole tree when its rows changed (see RowsInPlace), else each run row whose state changed, on its own. */
  private async redraw(settling: boolean): Promise<void> {
    if (this.inPlace.waiting) return;
    const now = new Map<string, HistoryNode[]>();
    for (const parent of this.inPlace.parents()) {
      now.set(parent, parent === ROOTS ? await this.childrenOf(undefined) : await this.runNodes(vscode.Uri.parse(parent, true)));
    }
    if (this.disposed) return;
    const plan = this.inPlace.plan(now, settling);
    if (plan === 'whole') this.refreshAll();
    else if (plan.length) this.changed.fire(plan);
  }

  private refreshAll(): void {
    this.lost.refreshed();
    this.inPlace.refreshedWhole();
    this.changed.fire(undefined);
    this.checkSoon();
  }

  /** A person opened `node` (the view's onDidExpandElement). */
  expanded(node: HistoryNode): void {
    const id = nodeId(node);
    this.lost.opened(id);
    if (!this.lost.wasAsked(id)) this.checkSoon();
  }

  /** A person closed `node` (the view's onDidCollapseElement). */
  collapsed(node: HistoryNode): void {
    this.lost.closed(nodeId(node));
  }

  /** Once VS Code has had time to ask for the open rows' children, each it lost is drawn again, open, under a new id. */
  private checkSoon(): void {
    if (this.healTimer) clearTimeout(this.healTimer);
    this.healTimer = setTimeout(() => {
      this.healTimer = undefined;
      const lost = this.lost.lost();
      if (!lost.length) return;
      for (const id of lost) {
        this.generation.set(id, this.lost.healed(id));
        this.reopen.add(id);
      }
      this.refreshAll();
    }, this.timing.healMs ?? HEAL_DELAY_MS);
  }

  private folders(): vscode.Uri[] {
    const byKey = new Map<string, vscode.Uri>();
    for (const f of [...this.runs.folders(), this.runs.active?.folder, this.runs.latest?.folder]) {
      if (f) byKey.set(f.toString(), f);
    }
    return [...byKey.values()];
  }

  private async records(folder: vscode.Uri): Promise<HistoryRecord[]> {
    const key = folder.toString();
    let runs = this.cache.get(key);
    if (!runs) {
      try {
        runs = await this.runs.runsOf(folder);
        this.setProblem(undefined);
      } catch (err) {
        runs = [];
        this.setProblem(`Could not read the run history of ${folderName(folder)}: ${(err as Error).message}`);
      }
      this.cache.set(key, runs);
    }
    return runsNewestFirst(runs.flatMap((r) => (r.record ? [r.record] : [])));
  }

  private setProblem(message: string | undefined): void {
    if (this.problem === message) return;
    this.problem = message;
    this.onProblem?.(message);
  }

  private async runNodes(folder: vscode.Uri): Promise<HistoryNode[]> {
    const f = folder.toString();
    return (await this.records(folder)).map((record) => this.inPlace.runRow(f, record));
  }

  async getChildren(node?: HistoryNode): Promise<HistoryNode[]> {
    const children = await this.childrenOf(node);
    const id = node ? nodeId(node) : undefined;
    if (id !== undefined) this.reopen.delete(id);
    this.lost.gave(id, children.map(nodeId));
    const wholeDue = this.inPlace.wholeDue;
    this.inPlace.gave(node, children);
    // VS Code draws the roots of a whole refresh and asks for the open rows' children next: they are judged from now
    // on, however long the refresh took to get here on a busy machine (a check due earlier found no row shown).
    if (!node && wholeDue) this.checkSoon();
    return children;
  }

  private async childrenOf(node: HistoryNode | undefined): Promise<HistoryNode[]> {
    if (node?.kind === 'folder') return this.runNodes(vscode.Uri.parse(node.folder, true));
    if (node) return childrenOf(node);
    const folders = this.folders();
    // Empty → the manifest's viewsWelcome text; one folder → its runs directly, as most workspaces have one root.
    if (folders.length === 0) return [];
    if (folders.length === 1) return this.runNodes(folders[0]);
    return folders.map((f): HistoryNode => ({ kind: 'folder', folder: f.toString(), name: folderName(f) }));
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    const view = describeNode(node, Date.now());
    this.inPlace.drew(node);
    const reopen = this.reopen.has(view.id) && view.collapsible !== 'none';
    if (reopen) this.lost.opened(view.id);
    else if (view.collapsible === 'expanded') this.lost.drawnOpen(view.id);
    const item = new vscode.TreeItem(view.label, COLLAPSE[reopen ? 'expanded' : view.collapsible]);
    const generation = this.generation.get(view.id);
    item.id = generation ? `${view.id}#${generation}` : view.id;
    item.description = view.description;
    // Markdown, so a command quoted in backticks reads as code; each line its own paragraph.
    if (view.tooltip) item.tooltip = new vscode.MarkdownString(view.tooltip.split('\n').filter((l) => l.trim()).join('\n\n'));
    item.contextValue = view.contextValue;
    if (view.command) item.command = view.command;
    if (view.resourcePath && (node.kind === 'file' || node.kind === 'candidateFile')) {
      item.resourceUri = vscode.Uri.joinPath(vscode.Uri.parse(node.folder, true), view.resourcePath);
      item.iconPath = vscode.ThemeIcon.File;
    } else {
      item.iconPath = new vscode.ThemeIcon(view.icon.id, view.icon.color ? new vscode.ThemeColor(view.icon.color) : undefined);
    }
    return item;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.settleTimer) clearTimeout(this.settleTimer);
    if (this.healTimer) clearTimeout(this.healTimer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

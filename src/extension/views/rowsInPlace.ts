// Which rows of the Loop history a redraw touches. On a whole-tree refresh VS Code's extension host forgets every row
// until the roots are fetched again, and a row a person opens in that moment asks for its children under an id the
// host no longer knows, gets none, and stays open and empty — the e2e's "row that never expanded", on a busy machine
// where that moment lasts longest. A row refreshed on its own keeps its id known, and VS Code fetches again the
// children of each open row below it. So the tree is refreshed whole only when its rows change (a run starts, the
// history is cleared); a run's new state redraws its own row. No vscode import: tested in plain Node.
import type { HistoryRecord } from '../../ports/history';
import type { HistoryNode } from './historyTreeModel';
import { nodeId } from './historyTreeModel';

export type RunRow = Extract<HistoryNode, { kind: 'run' }>;

/** The parent key of the roots; a folder's rows (multi-root) are under the folder's id. */
export const ROOTS = '';

export class RowsInPlace {
  /** The ids of the rows VS Code was last given under each parent whose children it fetched. */
  private readonly given = new Map<string, string[]>();
  /** A whole refresh was asked for and VS Code has not fetched the roots since: whatever it fetches is current. */
  private rootsDue = false;
  /** One object per run row: VS Code redraws a single row only when handed the very object it was given. */
  private readonly rows = new Map<string, RunRow>();
  /** Each run row's record as VS Code last drew it. */
  private readonly drawn = new Map<string, string>();
  /** Rows redrawn since the last settling redraw. */
  private readonly touched = new Set<string>();

  /** The row of `record` in `folder`: the object given before, holding the new record. */
  runRow(folder: string, record: HistoryRecord): RunRow {
    const id = nodeId({ kind: 'run', folder, record });
    const row = this.rows.get(id) ?? { kind: 'run', folder, record };
    row.record = record;
    this.rows.set(id, row);
    return row;
  }

  /** VS Code fetched `children` of `parent` (undefined: the roots). Only the roots and folders hold run rows. */
  gave(parent: HistoryNode | undefined, children: readonly HistoryNode[]): void {
    if (parent && parent.kind !== 'folder') return;
    if (!parent) this.rootsDue = false;
    const ids = children.map(nodeId);
    this.given.set(parent ? nodeId(parent) : ROOTS, ids);
    if (parent) return;
    // Rows no longer listed anywhere are forgotten, so a long session does not keep every run it ever showed.
    const listed = new Set([...this.given.values()].flat());
    for (const id of this.rows.keys()) if (!listed.has(id)) this.rows.delete(id);
  }

  /** VS Code drew `node` (getTreeItem). */
  drew(node: HistoryNode): void {
    if (node.kind === 'run') this.drawn.set(nodeId(node), JSON.stringify(node.record));
  }

  /** The whole tree is refreshed: VS Code fetches the roots, and each open row's children, again. */
  refreshedWhole(): void {
    this.given.clear();
    this.rootsDue = true;
    this.touched.clear();
  }

  /** Nothing to redraw row by row: VS Code has fetched nothing yet, or will fetch the whole tree anyway. */
  get waiting(): boolean {
    return this.rootsDue || !this.given.has(ROOTS);
  }

  /** A whole refresh VS Code has not fetched the roots of yet. */
  get wholeDue(): boolean {
    return this.rootsDue;
  }

  /** The parents whose children a redraw must compare: the roots and each folder VS Code opened. */
  parents(): string[] {
    return [...this.given.keys()];
  }

  /**
   * `now`: what each of parents() holds now. 'whole' when a parent's rows changed; else the run rows to redraw on
   * their own: those whose record changed since drawn, and when `settling`, every row redrawn since the last settling
   * redraw (VS Code may have lost the children of a row opened while one of those redraws was under way).
   */
  plan(now: ReadonlyMap<string, readonly HistoryNode[]>, settling: boolean): 'whole' | RunRow[] {
    const redraw: RunRow[] = [];
    for (const [parent, ids] of this.given) {
      const children = now.get(parent) ?? [];
      if (children.map(nodeId).join('\n') !== ids.join('\n')) return 'whole';
      for (const child of children) {
        if (child.kind !== 'run') continue;
        const id = nodeId(child);
        if (this.drawn.get(id) !== JSON.stringify(child.record) || (settling && this.touched.has(id))) redraw.push(child);
      }
    }
    if (settling) this.touched.clear();
    else for (const row of redraw) this.touched.add(nodeId(row));
    return redraw;
  }
}

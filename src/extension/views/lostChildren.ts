// Which open rows of a tree VS Code lost the children of. When VS Code asks for a row's children while a refresh is
// under way, its extension host can answer "No tree item with id" with no children without ever calling the
// provider: the row stays open and empty, and neither closing and opening it nor another refresh asks again. This
// bookkeeping (no vscode import) sees that from the provider's side — a row open and shown whose children were not
// asked for — so the provider can draw it again under a new id, which VS Code treats as a new row.

/**
 * At most this many redraws of a row in a row: a VS Code that keeps losing a row's children must not redraw forever.
 * A redraw VS Code answered (it asked for the children) starts the count again — a long run refreshes many times and
 * may lose an open row on any of them, and a lifetime cap left the finished run's row open and empty for good.
 */
const MAX_HEALS_PER_ROW = 3;

export class LostChildren {
  /** Rows open in the view, as the person left them (expand and collapse events) or as they were drawn open. */
  private readonly open = new Set<string>();
  /** Since the last whole-tree refresh: rows whose children were asked for, and each row shown with its parent. */
  private readonly asked = new Set<string>();
  private readonly parentOf = new Map<string, string | undefined>();
  /** Redraws since VS Code last asked for the row's children. */
  private readonly heals = new Map<string, number>();
  /** Redraws ever: each needs an id VS Code has not seen. */
  private readonly generations = new Map<string, number>();
  private readonly drawn = new Set<string>();

  /** A whole-tree refresh: VS Code asks for everything it shows again. */
  refreshed(): void {
    this.asked.clear();
    this.parentOf.clear();
  }

  /** The provider answered `getChildren(parent)` (undefined: the roots) with `children`. */
  gave(parent: string | undefined, children: readonly string[]): void {
    if (parent !== undefined) {
      this.asked.add(parent);
      this.heals.delete(parent);
    }
    for (const child of children) this.parentOf.set(child, parent);
  }

  /** The row was drawn open by default (a running run, a folder): open until the person closes it. */
  drawnOpen(id: string): void {
    if (this.drawn.has(id)) return;
    this.drawn.add(id);
    this.open.add(id);
  }

  opened(id: string): void {
    this.open.add(id);
  }

  closed(id: string): void {
    this.open.delete(id);
  }

  wasAsked(id: string): boolean {
    return this.asked.has(id);
  }

  /**
   * Open rows VS Code shows (each ancestor open too) whose children it has not asked for since the last refresh, and
   * that may still be redrawn. Call it a while after a refresh or an expand: VS Code asks at once when it can.
   */
  lost(): string[] {
    return [...this.open].filter((id) => !this.asked.has(id) && this.shown(id) && (this.heals.get(id) ?? 0) < MAX_HEALS_PER_ROW);
  }

  /** The row is drawn again under a new id: the generation to put in it. */
  healed(id: string): number {
    this.heals.set(id, (this.heals.get(id) ?? 0) + 1);
    const generation = (this.generations.get(id) ?? 0) + 1;
    this.generations.set(id, generation);
    return generation;
  }

  private shown(id: string): boolean {
    if (!this.parentOf.has(id)) return false;
    const parent = this.parentOf.get(id);
    return parent === undefined || (this.open.has(parent) && this.shown(parent));
  }
}

// VS Code's Problems view as the diagnostic half of the witness (greenloop.diagnostics.source "problems"): the
// errors the person's own language servers report, for any language. A language server re-reads a changed file on
// its own schedule, so the view is read only once every changed file's diagnostics have been refreshed and the view
// has gone quiet; a wait past its bound is said, never passed off as a fresh reading.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Checker, CheckerResult, Diagnostic } from '../../ports/verifier';

export interface ProblemsCheckerOptions {
  /** The workspace folder: only diagnostics of files under it count. */
  folder: string;
  /** How long the view must stay unchanged before it is read. */
  quietMs?: number;
  /** The longest wait for the changed files to be refreshed and the view to go quiet. */
  maxWaitMs?: number;
  /** Count warnings as well as errors. */
  warnings?: boolean;
}

const QUIET_MS = 750;
const MAX_WAIT_MS = 30_000;

export class ProblemsChecker implements Checker, vscode.Disposable {
  readonly source = 'problems';
  private readonly root: string;
  /**
   * Files written since the last reading (Greenloop's edits land on disk, not through an editor), each with when it was
   * last written, and when a language server last refreshed its diagnostics after that. Counted in events, not time:
   * a refresh that came before the reading started (while the tests ran) is as good as one during it.
   */
  private readonly writtenAt = new Map<string, number>();
  private readonly refreshedAt = new Map<string, number>();
  private events = 0;
  /** The file watcher, the diagnostics listener and their subscriptions: ended by dispose(). */
  private readonly owned: vscode.Disposable[] = [];

  constructor(private readonly opts: ProblemsCheckerOptions) {
    this.root = path.resolve(opts.folder);
    if (typeof vscode.workspace.createFileSystemWatcher === 'function') {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(this.root), '**/*'));
      const note = (uri: vscode.Uri) => {
        const rel = this.relative(uri);
        if (rel !== null && !rel.startsWith('.git/')) this.writtenAt.set(rel, ++this.events);
      };
      this.owned.push(w.onDidChange(note), w.onDidCreate(note), w);
    }
    this.owned.push(vscode.languages.onDidChangeDiagnostics((e) => {
      for (const uri of e.uris) {
        const rel = this.relative(uri);
        if (rel !== null && this.writtenAt.has(rel)) this.refreshedAt.set(rel, ++this.events);
      }
    }));
  }

  /** Ends the watcher; a run's end and a failed start both call it, and a second call does nothing. */
  dispose(): void {
    for (const d of this.owned.splice(0)) d.dispose();
  }

  async run(changedNow: readonly string[], signal?: AbortSignal): Promise<CheckerResult> {
    const stopped: CheckerResult = { ok: false, reason: 'Reading the Problems view was stopped.' };
    if (signal?.aborted) return stopped;
    // Files named by the caller were changed just now: only a refresh from here on is fresh.
    const now = ++this.events;
    for (const rel of changedNow) this.writtenAt.set(rel.split(path.sep).join('/'), now);
    const writes = new Map(this.writtenAt);
    // A file gone from disk (an edit's temporary file, renamed into place; a deleted file) has nothing to refresh.
    const changed = [...writes.keys()].filter((rel) => fs.existsSync(path.join(this.root, rel))).sort();
    // A language server diagnoses the documents it has open: each changed file is opened (not shown) so it is read.
    if (typeof vscode.workspace.openTextDocument === 'function') {
      await Promise.all(changed.map((rel) => Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.file(path.join(this.root, rel)))).catch(() => undefined)));
    }
    // Stopped while the files were opened: no wait starts, since an abort already past would never end it.
    if (signal?.aborted) return stopped;
    const stale = changed.filter((rel) => (this.refreshedAt.get(rel) ?? 0) < writes.get(rel)!);
    // What this reading covers is forgotten; a file written again meanwhile stays for the next one.
    for (const [rel, at] of writes) {
      if (this.writtenAt.get(rel) !== at) continue;
      this.writtenAt.delete(rel);
      this.refreshedAt.delete(rel);
    }
    const waited = await this.settle(stale, signal);
    if (signal?.aborted) return stopped;
    const diagnostics: Diagnostic[] = [];
    for (const [uri, list] of vscode.languages.getDiagnostics()) {
      const rel = this.relative(uri);
      if (rel === null) continue;
      for (const d of list) {
        const counts = d.severity === vscode.DiagnosticSeverity.Error || (this.opts.warnings && d.severity === vscode.DiagnosticSeverity.Warning);
        // Greenloop's own collection shows what it judged: reading it back would echo the last witness.
        if (!counts || d.source?.startsWith('greenloop')) continue;
        diagnostics.push({
          file: rel, line: d.range.start.line + 1, column: d.range.start.character + 1,
          code: codeOf(d.code), message: d.message, source: d.source?.trim() || 'problems',
        });
      }
    }
    diagnostics.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
    const warnings = waited.pending.length
      ? [`The Problems view was read after ${Math.round(waited.ms / 1000)} s without a refresh from a language server for ${listFiles(waited.pending)}; its diagnostics of ${waited.pending.length === 1 ? 'that file' : 'those files'} may be from before the edit.`]
      : [];
    return { ok: true, diagnostics, checked: null, warnings };
  }

  /**
   * Waits until every changed file has had its diagnostics refreshed at least once since the edit and the view then
   * stays unchanged for `quietMs`, or `maxWaitMs` passes. Returns the files never refreshed (empty when all were).
   */
  private settle(changed: readonly string[], signal?: AbortSignal): Promise<{ pending: string[]; ms: number }> {
    const quietMs = this.opts.quietMs ?? QUIET_MS;
    const maxWaitMs = this.opts.maxWaitMs ?? MAX_WAIT_MS;
    const started = Date.now();
    const pending = new Set(changed.map((f) => f.split(path.sep).join('/')));
    return new Promise((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(quiet);
        clearTimeout(bound);
        sub.dispose();
        signal?.removeEventListener('abort', finish);
        resolve({ pending: [...pending].sort(), ms: Date.now() - started });
      };
      const armQuiet = () => {
        clearTimeout(quiet);
        if (pending.size === 0) quiet = setTimeout(finish, quietMs);
      };
      const sub = vscode.languages.onDidChangeDiagnostics((e) => {
        let ours = false;
        for (const uri of e.uris) {
          const rel = this.relative(uri);
          if (rel === null) continue;
          ours = true;
          pending.delete(rel);
        }
        if (ours) armQuiet();
      });
      const bound = setTimeout(finish, maxWaitMs);
      signal?.addEventListener('abort', finish, { once: true });
      armQuiet();
    });
  }

  /** The workspace-relative POSIX path of a file under the folder, or null. */
  private relative(uri: vscode.Uri): string | null {
    if (uri.scheme !== 'file') return null;
    const rel = path.relative(this.root, uri.fsPath);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
    const posix = rel.split(path.sep).join('/');
    return posix.split('/').includes('node_modules') ? null : posix;
  }
}

function codeOf(code: vscode.Diagnostic['code']): string {
  if (code === undefined) return '';
  if (typeof code === 'object') return String(code.value);
  return String(code);
}

function listFiles(files: string[]): string {
  return files.length > 3 ? `${files.slice(0, 3).join(', ')} and ${files.length - 3} more` : files.join(', ');
}

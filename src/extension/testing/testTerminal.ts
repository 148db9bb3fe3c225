// A terminal the person watches while Greenloop runs their tests: the verifier captures the output and
// mirrors it here, so what is judged is exactly what is shown: colours and line breaks as the runner wrote them,
// any other control shown as its escape (a test's output is data; it may not clear the screen or set the clipboard).
import * as vscode from 'vscode';
import { TerminalOutputFilter } from '../../base/terminalText';

export class TestTerminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  /** Text written before VS Code opened the terminal; flushed on open. */
  private pending: string[] | undefined = [];
  private closed = false;
  private readonly filter = new TerminalOutputFilter();

  open(): void {
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const text of pending) this.writeEmitter.fire(text);
  }

  close(): void {
    this.closed = true;
  }

  /** Output as it arrives. */
  write(text: string): void {
    this.emit(this.filter.write(text));
  }

  /** A line of Greenloop's own; whatever the output held back (half an escape) is shown first. */
  writeLine(text: string): void {
    this.emit(this.filter.flush() + this.filter.write(`${text}\n`));
  }

  /** Terminals need CRLF; test output mostly has LF. */
  private emit(text: string): void {
    if (this.closed || !text) return;
    const crlf = text.replace(/\r?\n/g, '\r\n');
    if (this.pending) this.pending.push(crlf);
    else this.writeEmitter.fire(crlf);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

/** One terminal per window, reopened when the person closed it. */
export class TestTerminalHost implements vscode.Disposable {
  private terminal: vscode.Terminal | undefined;
  private pty: TestTerminal | undefined;
  private readonly sub = vscode.window.onDidCloseTerminal((t) => {
    if (t === this.terminal) {
      this.terminal = undefined;
      this.pty = undefined;
    }
  });

  /** The terminal's pseudoterminal, shown without taking focus from the editor. */
  acquire(): TestTerminal {
    if (!this.pty || this.pty.isClosed || !this.terminal) {
      this.pty = new TestTerminal();
      this.terminal = vscode.window.createTerminal({ name: 'Greenloop tests', pty: this.pty, iconPath: new vscode.ThemeIcon('beaker') });
    }
    this.terminal.show(true);
    return this.pty;
  }

  dispose(): void {
    this.sub.dispose();
    this.terminal?.dispose();
  }
}

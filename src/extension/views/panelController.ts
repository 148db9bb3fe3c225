// The escalation panel's conversation with its webview, without vscode: wait for `ready`, send the run, turn checked
// messages into run actions one at a time, report the outcome. escalationPanel.ts wires it to a real WebviewPanel.
import type { DiffSide, ExtraBudgetInput, HostMessage, PanelData } from '../../shared/protocol';
import { describeGrant, parseWebviewMessage } from '../../shared/protocol';
import type { SetupActionId } from '../../shared/setupActions';

export interface PanelPorts {
  post(message: HostMessage): void;
  /** The run's current data, or a sentence saying why it cannot be shown. */
  load(): Promise<{ data: PanelData; warning?: string } | { error: string }>;
  retry(hint: string, extra: ExtraBudgetInput): Promise<void>;
  rollback(to: 'best' | 'baseline'): Promise<void>;
  accept(): Promise<void>;
  /** Opens what fixes a setup problem (settings, tasks.json, workspace trust, the API key). */
  setupAction(id: SetupActionId): Promise<void>;
  openDiff(path: string, side: DiffSide): Promise<void>;
  close(): void;
}

export class PanelController {
  private ready = false;
  private busy = false;
  private closed = false;

  constructor(private readonly ports: PanelPorts) {}

  /** A hidden webview is torn down and says `ready` again when shown; nothing is sent in between. */
  hidden(): void {
    this.ready = false;
  }

  dispose(): void {
    this.closed = true;
  }

  private post(message: HostMessage): void {
    if (this.ready && !this.closed) this.ports.post(message);
  }

  private status(message: string, level: 'info' | 'error' = 'info'): void {
    this.post({ type: 'status', message, level });
  }

  /** Sends the run as it is now; returns it (undefined when it could not be loaded or nothing is shown). */
  async refresh(): Promise<PanelData | undefined> {
    if (!this.ready || this.closed) return undefined;
    let loaded: Awaited<ReturnType<PanelPorts['load']>>;
    try {
      loaded = await this.ports.load();
    } catch (err) {
      loaded = { error: (err as Error).message || String(err) };
    }
    if ('error' in loaded) {
      this.status(loaded.error, 'error');
      return undefined;
    }
    this.post({ type: 'show', data: loaded.data });
    this.post({ type: 'busy', busy: this.busy });
    if (loaded.warning) this.status(loaded.warning, 'error');
    return loaded.data;
  }

  /** Everything the webview sends comes through here; unknown or malformed messages are dropped. */
  async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message || this.closed) return;
    if (message.type === 'ready') {
      this.ready = true;
      await this.refresh();
      return;
    }
    if (message.type === 'close') {
      this.ports.close();
      return;
    }
    // Opening a settings page changes nothing of the run: no busy state, no refresh.
    if (message.type === 'setupAction') {
      await this.ports.setupAction(message.id).catch((err: Error) => this.status(err.message || String(err), 'error'));
      return;
    }
    if (message.type === 'openDiff') {
      // Opening an editor changes nothing, so it needs no turn and may run beside a roll back.
      await this.ports.openDiff(message.path, message.side).catch((err: Error) => this.status(err.message || String(err), 'error'));
      return;
    }
    // One action at a time: a double click must not roll back twice or start two retries.
    if (this.busy) return;
    this.busy = true;
    this.post({ type: 'busy', busy: true });
    let failed: string | undefined;
    try {
      if (message.type === 'retry') {
        this.status(`Retrying. ${describeGrant(message.extra)}`);
        await this.ports.retry(message.hint, message.extra);
      } else if (message.type === 'rollback') {
        await this.ports.rollback(message.to);
      } else {
        await this.ports.accept();
      }
    } catch (err) {
      failed = (err as Error).message || String(err);
    } finally {
      this.busy = false;
      this.post({ type: 'busy', busy: false });
    }
    // What the panel says afterwards is read from the run's state after the action (the workspace line shows where
    // the workspace is), never what was asked for: a finished retry leaves no "Retrying…" behind.
    const data = await this.refresh();
    if (failed) this.status(failed, 'error');
    else if (data) this.status(message.type === 'retry' ? `Retry ended: ${data.reasonTitle}.` : '');
  }
}

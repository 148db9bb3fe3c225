// Where a folder's runs live on disk: saved RunStates and the JSONL history, under the extension's storage,
// keyed by folder (so history survives a window reload). No vscode here.
import * as fs from 'fs';
import * as path from 'path';
import { historyKey, JsonlHistoryStore } from './historyStore';
import type { HistoryRecord } from '../ports/history';
import { RunStore } from './runStore';
import type { Redactor } from '../base/redact';

export class RunFiles {
  readonly runs: RunStore;
  readonly history: JsonlHistoryStore;

  /** `redactor`: what the runs and the history are written through. */
  constructor(readonly stateDir: string, readonly workspace: string, redactor: Redactor) {
    this.runs = new RunStore(stateDir, workspace, redactor);
    this.history = JsonlHistoryStore.forWorkspace(stateDir, workspace, redactor);
  }

  static hasHistory(stateDir: string, workspace: string): boolean {
    return fs.existsSync(path.join(stateDir, 'history', `${historyKey(workspace)}.jsonl`));
  }

  /** A run changed after it finished (rollback, accept) is appended again; the newest line wins, in first-seen order. */
  async list(): Promise<{ records: HistoryRecord[]; warnings: string[] }> {
    const { records, warnings } = await this.history.list();
    const order: string[] = [];
    const newest = new Map<string, HistoryRecord>();
    for (const r of records) {
      if (!newest.has(r.runId)) order.push(r.runId);
      newest.set(r.runId, r);
    }
    return { records: order.map((id) => newest.get(id)!), warnings };
  }
}

// Run history: one JSON line per run, per workspace. Corrupt lines are skipped with a warning, the file is capped.
import * as fs from 'fs';
import * as path from 'path';
import { canonicalWorkspace, workspaceKey } from '../base/stateDir';
import type { Redactor } from '../base/redact';
import type { HistoryRecord, HistoryStore } from '../ports/history';

/** History is kept per workspace under the same key as its snapshot store. */
export function historyKey(workspace: string): string {
  try {
    return workspaceKey(canonicalWorkspace(workspace));
  } catch {
    return workspaceKey(path.resolve(workspace)); // a folder that is gone still gets a stable key
  }
}

export class JsonlHistoryStore implements HistoryStore {
  /** `redactor`: every record is written through it (output excerpts, notes and hypotheses can carry secrets). */
  constructor(
    private readonly file: string,
    private readonly redactor: Redactor,
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  static forWorkspace(stateDir: string, workspace: string, redactor: Redactor): JsonlHistoryStore {
    return new JsonlHistoryStore(path.join(stateDir, 'history', `${historyKey(workspace)}.jsonl`), redactor);
  }

  async append(record: HistoryRecord): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
    await fs.promises.appendFile(this.file, `${JSON.stringify(this.redactor.json(record))}\n`);
    const { size } = await fs.promises.stat(this.file);
    if (size > this.maxBytes) await this.compact();
  }

  async list(): Promise<{ records: HistoryRecord[]; warnings: string[] }> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], warnings: [] };
      return { records: [], warnings: [`Could not read the run history ${this.file}: ${(err as Error).message}`] };
    }
    const records: HistoryRecord[] = [];
    let corrupt = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as HistoryRecord;
        if (typeof r.runId === 'string' && Array.isArray(r.iterations)) records.push(r);
        else corrupt++;
      } catch {
        corrupt++;
      }
    }
    const warnings = corrupt ? [`Skipped ${corrupt} unreadable line${corrupt === 1 ? '' : 's'} in the run history ${this.file}.`] : [];
    return { records, warnings };
  }

  async clear(): Promise<void> {
    await fs.promises.rm(this.file, { force: true });
  }

  /** Keeps the newest records that fit in half the cap, so compaction does not run on every append. */
  private async compact(): Promise<void> {
    const lines = (await fs.promises.readFile(this.file, 'utf8')).split('\n').filter((l) => l.trim());
    const kept: string[] = [];
    let bytes = 0;
    for (let i = lines.length - 1; i >= 0 && bytes + lines[i].length + 1 <= this.maxBytes / 2; i--) {
      kept.unshift(lines[i]);
      bytes += lines[i].length + 1;
    }
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, kept.map((l) => `${l}\n`).join(''));
    await fs.promises.rename(tmp, this.file);
  }
}

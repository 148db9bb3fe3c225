import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { HistoryRecord } from '../../../src/ports/history';
import { historyKey } from '../../../src/store/historyStore';
import type { CodeServer } from './codeServer';
import { eventually } from './poll';

/**
 * The runs Greenloop saved for `workspace` in this code-server, oldest first: its history file under the extension's
 * workspace storage holds a line per run that ended (and per Roll back or Accept of a saved run, and per retry). The
 * extension writes it as a run ends, so a new line is the event "the run ended", seen whatever the screen shows yet.
 */
export function savedRuns(server: CodeServer, workspace: string): HistoryRecord[] {
  const storage = join(server.userDataDir, 'User', 'workspaceStorage');
  if (!existsSync(storage)) return [];
  const name = `${historyKey(workspace)}.jsonl`;
  for (const dir of readdirSync(storage)) {
    const file = join(storage, dir, 'greenloop.greenloop', 'history', name);
    // A line being appended may be cut short: the read throws and eventually() reads again.
    if (existsSync(file)) return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as HistoryRecord);
  }
  return [];
}

/**
 * Waits until line `n` (1-based) of the workspace's history is written — the n-th run (or retry) has ended — and
 * returns it. `quietMs` is a quiet machine's time for the whole run, with room to spare (stretched by the load).
 */
export async function runSaved(server: CodeServer, workspace: string, n: number, quietMs = 120_000): Promise<HistoryRecord> {
  // The outcomes so far, not whole records, are what a timeout's message shows.
  await eventually(`the run in ${basename(workspace)} to end (history line ${n})`, async () => savedRuns(server, workspace).map((r) => r.outcome), (o) => o.length >= n, quietMs);
  return savedRuns(server, workspace)[n - 1]!;
}

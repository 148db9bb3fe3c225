// The next start after a run that died (SIGKILL, a crash, a closed window): finish what its journal says was in
// flight. Paths the loop was writing go back to the snapshot recorded before the write — only when they still hold
// the content from before or the content being written; anything else is someone's later edit and stays. Temp
// files of the dead run go. Returns the one sentence that tells the person what was recovered.
import { blobIdOnDisk } from '../base/blobId';
import type { SnapshotStore } from '../ports/snapshots';
import type { JournalRecord } from './runJournal';
import type { WriteIntent } from '../ports/journal';
import { removeDeadTempSiblings } from '../base/tempSibling';
import { hiddenChanges } from '../base/hiddenChanges';

export interface Recovered {
  sentence: string;
  restored: string[];
  leftAlone: string[];
}

function listed(paths: readonly string[]): string {
  return `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
}

function files(n: number): string {
  return `${n} file${n === 1 ? '' : 's'}`;
}

export async function recoverInterrupted(earlier: JournalRecord | 'unreadable', snapshots: SnapshotStore, root: string): Promise<Recovered> {
  if (earlier === 'unreadable') {
    return { sentence: 'An earlier run on this folder stopped without finishing and its journal is unreadable; its edits, if any, were left as they are.', restored: [], leftAlone: [] };
  }
  const who = `The earlier run ${earlier.runId} on this folder was interrupted`;
  // What was being written goes back first (to the state before that write), then what the loop had kept beyond its
  // best state (to the best state): the order the run itself would have undone them in.
  const parts: Recovered[] = [];
  if (earlier.intent) parts.push(await recoverIntent(who, earlier.intent, snapshots, root));
  if (earlier.kept) parts.push(await recoverIntent(parts.length ? 'Besides, it was interrupted' : who, earlier.kept, snapshots, root));
  if (!parts.length) return { sentence: `${who} between attempts; the workspace is as it left it (nothing was being written).`, restored: [], leftAlone: [] };
  return {
    sentence: parts.map((p) => p.sentence).join(' '),
    restored: [...new Set(parts.flatMap((p) => p.restored))],
    leftAlone: [...new Set(parts.flatMap((p) => p.leftAlone))].filter((p) => !parts.some((q) => q.restored.includes(p))),
  };
}

async function recoverIntent(who: string, intent: WriteIntent, snapshots: SnapshotStore, root: string): Promise<Recovered> {
  const attempt = `attempt ${intent.attempt}`;
  await removeDeadTempSiblings(root, intent.paths.map((p) => p.path));
  let differing: Set<string>;
  try {
    differing = new Set(await snapshots.changedSince(intent.returnTo));
  } catch (err) {
    const touched = intent.paths.map((p) => p.path);
    return {
      sentence: `${who} during ${attempt}, and the state to return to is gone from the snapshot store (${(err as Error).message}); ${touched.length ? `check ${listed(touched)} by hand` : 'its files were left as they are'}.`,
      restored: [], leftAlone: touched,
    };
  }
  if (intent.kind === 'agent') {
    // An agent writes where it likes, and a person may have saved since: nothing tells them apart, so nothing is undone.
    const changed = [...differing];
    const what = changed.length ? `${listed(changed)} changed since that attempt began and ${changed.length === 1 ? 'was left as it is' : 'were left as they are'} (the agent's changes or yours)` : 'nothing had changed';
    return { sentence: `${who} while an agent worked on ${attempt}; ${what}.`, restored: [], leftAlone: changed };
  }
  // A path the loop wrote that ignore rules now hide (the same edit added them) is compared blob by blob.
  const unseen = [...intent.paths.map((p) => p.path), ...intent.artifacts].filter((p) => !differing.has(p));
  for (const p of await hiddenChanges({ cwd: root, snapshots }, intent.returnTo, unseen)) differing.add(p);
  const restore: string[] = [];
  const leftAlone: string[] = [];
  for (const p of intent.paths) {
    if (!differing.has(p.path)) continue; // already as it was before the write (or never written)
    const now = await blobIdOnDisk(root, p.path);
    (now === p.before || now === p.after ? restore : leftAlone).push(p.path);
  }
  for (const a of intent.artifacts) if (differing.has(a) && !restore.includes(a)) restore.push(a);
  await snapshots.restorePaths(intent.returnTo, restore);
  const doing = intent.kind === 'apply' ? `while ${attempt} was being applied or tested`
    : intent.kind === 'kept' ? `after ${attempt}, with edits beyond its best state in the workspace` : `while rolling back after ${attempt}`;
  const done = !restore.length ? 'nothing needed putting back'
    : intent.kind === 'kept' ? `put ${files(restore.length)} back to the run's best state, as the run would have at its end` : `put ${files(restore.length)} back as they were before that write`;
  const kept = leftAlone.length ? `; ${listed(leftAlone)} changed since and ${leftAlone.length === 1 ? 'was' : 'were'} left as ${leftAlone.length === 1 ? 'it is' : 'they are'}` : '';
  return { sentence: `${who} ${doing}: Greenloop ${done}${kept}.`, restored: restore, leftAlone };
}

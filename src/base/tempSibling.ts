// Every file Greenloop writes in a workspace goes to a temp file beside its target first and is then renamed into
// place, so a kill leaves either the old or the new content, never half a file. The temp name carries the writer's
// pid, so a later start can tell a temp file of a dead run (remove it) from one a live run is writing.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { processIsAlive } from './processLiveness';

const MARK = '.greenloop-';

export function tempSiblingFor(abs: string): string {
  return path.join(path.dirname(abs), `.${path.basename(abs)}${MARK}${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** The pid in a temp sibling's name, or null when the name is not one of ours. */
export function tempSiblingOwner(name: string): number | null {
  const m = /^\..+\.greenloop-(\d{1,10})-[0-9a-f]{8}$/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * Removes temp siblings left by processes that are gone, in the folders of these workspace files. Returns how many.
 * Only folders the loop wrote in are looked at: a whole-workspace walk would cost more than a crash is worth.
 */
export async function removeDeadTempSiblings(root: string, relPaths: Iterable<string>): Promise<number> {
  const dirs = new Set<string>();
  for (const rel of relPaths) dirs.add(path.dirname(path.join(root, rel)));
  let removed = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = tempSiblingOwner(name);
      if (owner === null || processIsAlive(owner)) continue;
      await fsp.rm(path.join(dir, name), { force: true });
      removed += 1;
    }
  }
  return removed;
}

// The git blob id of a file's bytes, computed here: the snapshot store records raw bytes (no eol conversion, no
// filters), so this equals the id git stores, and a recovery can compare the disk with a snapshot without git.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export function blobId(content: Buffer | string): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The blob id of a workspace path as it is now (a link's target text for a symlink), or null when it is absent. */
export async function blobIdOnDisk(root: string, rel: string): Promise<string | null> {
  const abs = path.join(root, rel);
  try {
    const st = await fsp.lstat(abs);
    if (st.isSymbolicLink()) return blobId(Buffer.from(await fsp.readlink(abs), 'utf8'));
    if (!st.isFile()) return null;
    return blobId(await fsp.readFile(abs));
  } catch {
    return null;
  }
}

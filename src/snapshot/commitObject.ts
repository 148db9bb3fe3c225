// Writes a snapshot's commit object straight into the shadow store. A commit is a few lines of text, and
// skipping `git commit-tree` saves a process start on every snapshot (most of what it costs beyond git add).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';

const IDENT = 'Greenloop <greenloop@localhost>';

// No parent: each snapshot stands alone, so deleting one run can never leave another's commit dangling.
export async function writeCommit(gitDir: string, tree: string, message: string, now = Date.now()): Promise<string> {
  if (!/^[0-9a-f]{40}$/.test(tree)) throw new Error(`Not a tree id: ${tree}`);
  const when = `${Math.floor(now / 1000)} +0000`;
  // A commit message must not contain NUL; newlines are fine, a trailing one is conventional.
  const msg = message.replace(/\0/g, ' ').replace(/\s+$/, '') || 'snapshot';
  const lines = [`tree ${tree}`, `author ${IDENT} ${when}`, `committer ${IDENT} ${when}`, '', `${msg}\n`];
  const body = Buffer.from(lines.join('\n'), 'utf8');
  const raw = Buffer.concat([Buffer.from(`commit ${body.length}\0`), body]);
  const id = createHash('sha1').update(raw).digest('hex');
  const dir = path.join(gitDir, 'objects', id.slice(0, 2));
  const file = path.join(dir, id.slice(2));
  if (existsSync(file)) return id;
  await fsp.mkdir(dir, { recursive: true });
  // Write then rename, as git does, so a crash never leaves a truncated object under its final name.
  const tmp = path.join(dir, `tmp_${randomBytes(6).toString('hex')}`);
  await fsp.writeFile(tmp, deflateSync(raw), { mode: 0o444 });
  await fsp.rename(tmp, file);
  return id;
}

// What a git index stages, as one digest: each entry's mode, object id, stage, flags and path, read from the file
// itself (index format 2–4, git's Documentation/gitformat-index.txt). The stat data and extensions are left out:
// `git status` rewrites those on its own, while `git add` or `git commit` change the entries. Read here rather
// than by running git, which would mean running git (and its fsmonitor hook) against the person's repository.
import { createHash } from 'node:crypto';

const STAT_BYTES = 40;

/** The digest of the staged entries, or null for a file this reader does not understand. */
export function stagedDigest(buf: Buffer, oidBytes: 20 | 32): string | null {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const hash = createHash('sha256');
  let off = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = off;
    let p = start + STAT_BYTES + oidBytes + 2;
    if (p > buf.length) return null;
    const flags = buf.readUInt16BE(p - 2);
    let extended = 0;
    if (flags & 0x4000) {
      if (version < 3 || p + 2 > buf.length) return null;
      extended = buf.readUInt16BE(p);
      p += 2;
    }
    let name: Buffer;
    if (version === 4) {
      // The path is the previous one less N bytes, plus what follows (N as git's offset varint).
      let c = buf[p++];
      let strip = c & 127;
      while (c & 128) {
        if (p >= buf.length) return null;
        c = buf[p++];
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const end = buf.indexOf(0, p);
      if (end < 0 || strip > previous.length) return null;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), buf.subarray(p, end)]);
      off = end + 1;
    } else {
      const end = buf.indexOf(0, p);
      if (end < 0) return null;
      name = buf.subarray(p, end);
      // Entries are NUL-padded to a multiple of 8 bytes, at least one NUL.
      off = start + ((end - start + 8) & ~7);
    }
    previous = name;
    hash.update(buf.subarray(start + 24, start + 28)); // mode
    hash.update(buf.subarray(start + STAT_BYTES, start + STAT_BYTES + oidBytes));
    hash.update(`${flags & 0xb000}:${extended & 0x6000}:`);
    hash.update(name);
    hash.update('\0');
  }
  return hash.digest('hex');
}

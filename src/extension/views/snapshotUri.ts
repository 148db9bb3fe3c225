// Addresses of snapshot file contents for diff editors: greenloop-snapshot:/<relPath>?<folder and snapshot>.
// The path keeps the file's name, so the diff editor picks the right language; the query says where to read it.
// Pure, so the round trip is tested without VS Code.

export const SNAPSHOT_SCHEME = 'greenloop-snapshot';

export interface SnapshotAddress {
  /** The workspace folder's URI as a string. */
  folder: string;
  snapshot: string;
  relPath: string;
}

export function snapshotUriParts(a: SnapshotAddress): { scheme: string; path: string; query: string } {
  const rel = a.relPath.replace(/\\/g, '/').replace(/^\/+/, '');
  return { scheme: SNAPSHOT_SCHEME, path: `/${rel}`, query: JSON.stringify({ folder: a.folder, snapshot: a.snapshot }) };
}

/** Returns null for anything this extension did not produce (a hand-typed or stale URI). */
export function parseSnapshotUri(path: string, query: string): SnapshotAddress | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(query);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { folder, snapshot } = parsed as Record<string, unknown>;
  const relPath = path.replace(/^\/+/, '');
  if (typeof folder !== 'string' || !folder || typeof snapshot !== 'string' || !snapshot || !relPath) return null;
  return { folder, snapshot, relPath };
}

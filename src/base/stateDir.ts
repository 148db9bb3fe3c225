// Where snapshots live: never inside the workspace, one store per workspace folder.
import { createHash } from 'node:crypto';
import { promises as fsp, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The OS's per-user state directory for Greenloop (XDG_STATE_HOME on Linux). */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') {
    return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'greenloop', 'state');
  }
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'greenloop');
  const xdg = env.XDG_STATE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state'), 'greenloop');
}

/** The workspace's canonical path, so two spellings of one folder share one store. */
export function canonicalWorkspace(workspace: string): string {
  return realpathSync(path.resolve(workspace));
}

export function workspaceKey(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** `<stateDir>/snapshots/<key>`: the shadow repository of one workspace. */
export function shadowDirFor(stateDir: string, canonical: string): string {
  return path.join(path.resolve(stateDir), 'snapshots', workspaceKey(canonical));
}

/**
 * Makes sure the state folder exists and can be written, before anything is read from it or written to it.
 * Throws one sentence naming the folder and what is wrong with it (a file in the way, no permission, read-only).
 */
export async function ensureUsableStateDir(dir: string): Promise<void> {
  const abs = path.resolve(dir);
  try {
    await fsp.mkdir(abs, { recursive: true });
    const probe = path.join(abs, `.greenloop-write-probe-${process.pid}`);
    await fsp.writeFile(probe, '');
    await fsp.rm(probe, { force: true });
  } catch (err) {
    throw new Error(`The state folder ${abs} cannot be used (${whyUnusable(err as NodeJS.ErrnoException)})`);
  }
}

function whyUnusable(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way where a folder should be';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full';
    default:
      return err.code ?? err.message;
  }
}

/**
 * The state folder's path inside the workspace ("/"-separated), or null when it is elsewhere. A state folder inside
 * the workspace must be left out of every snapshot and every change check: its files are Greenloop's, not the code's.
 */
export function stateDirInside(canonicalWorkspace: string, stateDir: string): string | null {
  let real: string;
  try {
    real = realpathSync(path.resolve(stateDir));
  } catch {
    real = path.resolve(stateDir);
  }
  const rel = path.relative(canonicalWorkspace, real);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

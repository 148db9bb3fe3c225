// Where snapshots live: never inside the workspace, one store per workspace folder.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
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

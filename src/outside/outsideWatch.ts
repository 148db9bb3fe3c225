// The watch over what an agent CLI may change outside the snapshotted tree: the person's repository (.git), the
// workspace's git-ignored files, the home dotfiles and the folder around the workspace. Opened once per run, before
// the first test run; marked before each agent run and checked after it.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { OutsideMark, OutsideWatch } from '../ports/outside';
import type { SnapshotStore } from '../ports/snapshots';
import { workspaceKey } from '../base/stateDir';
import { GitDirWatch } from './userGitDir';
import { IgnoredFilesWatch } from './ignoredFiles';
import { NearbyFilesWatch } from './nearbyFiles';

export interface OutsideWatchOptions {
  workspace: string;
  /** Copies of ignored files wait under <stateDir>/outside/ while the agent runs. */
  stateDir: string;
  home: string;
  snapshots: Pick<SnapshotStore, 'unrecordedFingerprint'>;
}

export async function openOutsideWatch(opts: OutsideWatchOptions): Promise<OutsideWatch> {
  const workspace = await fsp.realpath(opts.workspace);
  const home = await fsp.realpath(opts.home).catch(() => path.resolve(opts.home));
  const saveDir = path.join(path.resolve(opts.stateDir), 'outside', workspaceKey(workspace));
  const ignored = await IgnoredFilesWatch.open(workspace, opts.snapshots, saveDir);
  const show = (abs: string) => {
    const rel = path.relative(workspace, abs);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    const fromHome = path.relative(home, abs);
    return !fromHome.startsWith('..') && !path.isAbsolute(fromHome) ? `~/${fromHome.split(path.sep).join('/')}` : abs;
  };
  return {
    async mark(): Promise<OutsideMark> {
      const git = await GitDirWatch.mark(workspace, show);
      const nearby = await NearbyFilesWatch.mark(workspace, opts.home);
      const files = await ignored.mark();
      return {
        warnings: [...git.warnings, ...files.warnings],
        check: async () => [...(await git.check(workspace)), ...(await files.check()), ...(await nearby.check())],
      };
    },
  };
}

// Outside the workspace Greenloop cannot watch the whole disk; it watches where an agent's stray or hostile write
// most often lands. The home dotfiles that run code or hold credentials are saved and put back byte for byte
// (through a link, the file it points to as well). The folder the workspace sits in is looked at entry by entry
// (a file next to the workspace created, changed or removed; a folder there only when it comes or goes), and a
// change there is named as a warning, never undone: it may be the person's or another program's. That folder is not watched when it is the system temp
// folder or the home folder, where other programs write all the time.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { OutsideChange } from '../ports/outside';
import { changeOf, putBack, saveFile, SaveBudget, statKey, type SavedFile } from './savedFile';

const HOME_FILES = [
  '.bashrc', '.bash_profile', '.profile', '.zshrc', '.zshenv', '.zprofile',
  '.gitconfig', '.config/git/config', '.npmrc', '.ssh/authorized_keys', '.ssh/config',
  // git's own ignore list, which the snapshots read too: a line there would hide files from every rollback.
  '.config/git/ignore',
];

const MB = 1024 * 1024;

const inside = (dir: string, p: string) => p === dir || p.startsWith(`${dir}${path.sep}`);

async function realOr(p: string): Promise<string> {
  return fsp.realpath(p).catch(() => path.resolve(p));
}

/** A folder counts only by being there (what is inside it changes all the time); anything else by its stat. */
async function entriesOf(dir: string, skip: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (name === skip) continue;
    const st = await fsp.lstat(path.join(dir, name)).catch(() => null);
    if (st) out.set(name, st.isDirectory() ? `dir:${st.ino}` : statKey(st));
  }
  return out;
}

export class NearbyFilesWatch {
  private constructor(
    private readonly dotfiles: Array<{ where: string; saved: SavedFile }>,
    private readonly parent: { dir: string; skip: string; entries: Map<string, string> } | null,
  ) {}

  static async mark(realWorkspace: string, home: string): Promise<NearbyFilesWatch> {
    const realHome = await realOr(home);
    const budget = new SaveBudget(8 * MB, 1 * MB);
    const dotfiles: Array<{ where: string; saved: SavedFile }> = [];
    for (const rel of HOME_FILES) {
      const abs = path.join(realHome, rel);
      if (inside(realWorkspace, abs)) continue;
      const saved = await saveFile(abs, budget);
      dotfiles.push({ where: `~/${rel}`, saved });
      // A dotfile kept elsewhere and linked here: an append through the link changes that file.
      if (saved.kind === 'link') {
        const target = await fsp.realpath(abs).catch(() => null);
        if (target && !inside(realWorkspace, target)) dotfiles.push({ where: `~/${rel} (the file it links to)`, saved: await saveFile(target, budget) });
      }
    }
    const dir = path.dirname(realWorkspace);
    const busy = new Set([await realOr(os.tmpdir()), realHome, path.parse(dir).root]);
    const parent = dir === realWorkspace || busy.has(dir) ? null : { dir, skip: path.basename(realWorkspace), entries: await entriesOf(dir, path.basename(realWorkspace)) };
    return new NearbyFilesWatch(dotfiles, parent);
  }

  async check(): Promise<OutsideChange[]> {
    const out: OutsideChange[] = [];
    for (const { where, saved } of this.dotfiles) {
      const what = await changeOf(saved);
      if (!what) continue;
      const why = await putBack(saved);
      out.push({ where, what, undone: why === null, why: why ?? undefined, guarded: true });
    }
    if (this.parent) {
      const { dir, skip, entries: before } = this.parent;
      const after = await entriesOf(dir, skip);
      for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
        if (before.get(name) === after.get(name)) continue;
        const what = !before.has(name) ? 'created' : !after.has(name) ? 'deleted' : 'changed';
        out.push({ where: `../${name}`, what, undone: false, why: 'next to the workspace, where Greenloop saves nothing', guarded: false });
      }
    }
    return out;
  }
}

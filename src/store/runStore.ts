// Keeps each run's whole state on disk so a person (or `fix --resume`) can inspect or continue it later.
import * as fs from 'fs';
import * as path from 'path';
import type { RunState } from '../ports/runState';
import { historyKey } from './historyStore';
import { asSavedRun } from './savedRunShape';
import { packSharedLists, unpackSharedLists } from './sharedLists';
import { writeJsonFileSync } from './jsonFile';
import type { Redactor } from '../base/redact';

export class RunStore {
  private readonly dir: string;

  /** `redactor`: every state is saved through it, so no secret the run saw (test output, an answer) lands on disk. */
  constructor(stateDir: string, workspace: string, private readonly redactor: Redactor) {
    this.dir = path.join(stateDir, 'runs', historyKey(workspace));
  }

  async save(state: RunState): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${state.runId}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    writeJsonFileSync(tmp, packSharedLists(state), (s) => this.redactor.text(s));
    await fs.promises.rename(tmp, file);
    await fs.promises.writeFile(path.join(this.dir, 'last'), state.runId);
  }

  /** `id` may be "last". Throws a one-sentence error when there is no such run. */
  async load(id: string): Promise<RunState> {
    let runId = id;
    if (id === 'last') {
      try {
        runId = (await fs.promises.readFile(path.join(this.dir, 'last'), 'utf8')).trim();
      } catch {
        throw new Error('There is no earlier run on this workspace to resume.');
      }
    }
    if (!/^[\w.-]+$/.test(runId)) throw new Error(`"${id}" is not a run id.`);
    let saved: unknown;
    try {
      saved = JSON.parse(await fs.promises.readFile(path.join(this.dir, `${runId}.json`), 'utf8'));
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      throw new Error(missing ? `There is no run ${runId} on this workspace.` : `The saved state of run ${runId} is unreadable (${(err as Error).message}), so it cannot be resumed; start a new run instead.`);
    }
    return asSavedRun(unpackSharedLists(saved), runId);
  }

  async delete(runId: string): Promise<void> {
    await fs.promises.rm(path.join(this.dir, `${runId}.json`), { force: true });
  }
}

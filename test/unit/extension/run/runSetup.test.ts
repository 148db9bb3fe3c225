// A run's parts are made in steps (folder, test command, verifier, model); a step that fails leaves nothing of the
// earlier ones running: with the Problems view as the checker, no file watcher outlives a run that could not start.
import * as assert from 'assert';
import * as fs from 'fs';
import { fake, FakeMemento, Uri } from '../support/fakeVscode';
import { prepareRun } from '../../../../src/extension/run/runSetup';
import { ConfigReader } from '../../../../src/extension/config';
import { tempProject } from '../../support/cli';

describe('prepareRun', () => {
  let project: string;
  beforeEach(() => {
    fake.reset();
    project = fs.realpathSync(tempProject('calc', { git: false }));
  });
  afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

  it('a model that cannot be had ends the run before it starts, and the Problems view watcher it made with it', async () => {
    const folder = { uri: Uri.file(project), name: 'calc', index: 0 };
    fake.workspaceFolders = [folder];
    fake.settings.set('greenloop.diagnostics.source', 'problems');
    fake.settings.set('greenloop.testCommand', 'npm test');
    fake.settings.set('greenloop.model.provider', 'vscode-lm');
    fake.chatModels = [];
    const config = new ConfigReader();
    const context = { workspaceState: new FakeMemento(), globalState: new FakeMemento(), secrets: { get: async () => undefined }, subscriptions: [] };
    try {
      await assert.rejects(prepareRun(folder as never, config.read(folder.uri as never), context as never, () => ({ write: () => undefined, writeLine: () => undefined })), /model/i);
      assert.strictEqual(fake.watchers.size, 0, 'no file watcher is left');
    } finally {
      config.dispose();
    }
  });
});

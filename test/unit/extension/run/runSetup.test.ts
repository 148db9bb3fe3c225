// A run's parts are made in steps (folder, test command, verifier, model); a step that fails leaves nothing of the
// earlier ones running: with the Problems view as the checker, no file watcher outlives a run that could not start.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fake, FakeMemento, Uri } from '../support/fakeVscode';
import { prepareRun } from '../../../../src/extension/run/runSetup';
import { RunService } from '../../../../src/extension/run/runService';
import { ConfigReader } from '../../../../src/extension/config';
import { tempDir, tempProject } from '../../support/cli';

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
    const context = { workspaceState: new FakeMemento(), globalState: new FakeMemento(), secrets: { get: async () => undefined }, subscriptions: [], globalStorageUri: Uri.file(path.join(project, '..', 'storage')) };
    try {
      await assert.rejects(prepareRun(folder as never, config.read(folder.uri as never), context as never, () => ({ write: () => undefined, writeLine: () => undefined })), /model/i);
      assert.strictEqual(fake.watchers.size, 0, 'no file watcher is left');
    } finally {
      config.dispose();
    }
  });
});

describe('RunService: a run ends what its verifier watches', () => {
  let project: string;
  let notDir: string;
  beforeEach(() => {
    fake.reset();
    project = fs.realpathSync(tempProject('calc'));
    notDir = path.join(tempDir('state'), 'a-file');
    fs.writeFileSync(notDir, 'the state folder is a file here, so the run cannot open its session');
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(path.dirname(notDir), { recursive: true, force: true });
  });

  it('a run that ends before its baseline (its session cannot open) leaves no Problems view watcher', async () => {
    const folder = { uri: Uri.file(project), name: 'calc', index: 0 };
    fake.workspaceFolders = [folder];
    fake.settings.set('greenloop.diagnostics.source', 'problems');
    fake.settings.set('greenloop.testCommand', 'npm test');
    fake.settings.set('greenloop.model.provider', 'openai-compatible');
    fake.settings.set('greenloop.model.baseUrl', 'http://127.0.0.1:9/v1');
    fake.settings.set('greenloop.model.name', 'scripted');
    const config = new ConfigReader();
    const context = { storageUri: Uri.file(notDir), workspaceState: new FakeMemento(), globalState: new FakeMemento(), secrets: { get: async () => undefined }, subscriptions: [] };
    const said: string[] = [];
    const channel = { info: (m: string) => said.push(m), warn: (m: string) => said.push(m), error: (m: string) => said.push(m), show: () => undefined };
    const terminals = { acquire: () => ({ write: () => undefined, writeLine: () => undefined }) };
    const runs = new RunService(context as never, config, channel as never, terminals as never);
    try {
      const state = await runs.start(folder.uri as never);
      assert.strictEqual(state, undefined, 'the run did not start');
      assert.ok(said.some((m) => /a-file/.test(m)), `the reason names the state folder: ${said.join(' | ')}`);
      assert.strictEqual(fake.watchers.size, 0, 'no file watcher is left');
    } finally {
      runs.dispose();
      config.dispose();
    }
  });
});

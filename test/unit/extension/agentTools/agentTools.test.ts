// Greenloop's tools for chat agents in VS Code, registered into the fake `vscode` and invoked as VS Code would:
// verify on a real git repo with the calc fixture (real test command, real snapshot store), the rollback's
// confirmation, Restricted Mode, and the MCP servers offered per folder.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fake, CancellationTokenSource, FakeMemento, Uri, vscodeFake, type FakeTool } from '../support/fakeVscode';
import { registerLmTools, TOOL_NAMES } from '../../../../src/extension/agentTools/lmTools';
import { MCP_PROVIDER_ID, registerMcpServers } from '../../../../src/extension/agentTools/mcpServers';
import { ConfigReader } from '../../../../src/extension/config';
import { RunFiles } from '../../../../src/store/runFiles';
import { runSecrets } from '../../../../src/base/secretEnv';
import type { ToolRuns } from '../../../../src/extension/agentTools/folderSessions';
import { tempDir, tempProject } from '../../support/cli';

const FIXED = (src: string) => src.replace('return a - b;', 'return a + b;').replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;');

describe('agent tools in VS Code (greenloop_verify, greenloop_rollback, greenloop_fixUntilGreen, the MCP servers)', function () {
  this.timeout(120_000);
  let project: string;
  let stateDir: string;
  let config: ConfigReader;
  let historyRefreshes: string[];
  let terminal: string[];

  beforeEach(() => {
    fake.reset();
    project = fs.realpathSync(tempProject('calc'));
    stateDir = tempDir('state');
    fake.workspaceFolders = [{ uri: Uri.file(project), name: 'calc', index: 0 }];
    fake.settings.set('greenloop.tsc', 'off');
    config = new ConfigReader();
    historyRefreshes = [];
    terminal = [];
    const runs: ToolRuns = {
      stateDir, active: undefined, latest: undefined,
      historyChanged: (folder) => historyRefreshes.push(folder.fsPath),
      start: async () => undefined,
    };
    const context = { workspaceState: new FakeMemento(), globalState: new FakeMemento(), extensionPath: '/ext', subscriptions: [], globalStorageUri: Uri.file(path.join(stateDir, 'window')) };
    registerLmTools({ context: context as never, config: config as never, runs, sink: () => ({ write: (t) => terminal.push(t), writeLine: (t) => terminal.push(t) }), log: { warn: () => undefined } });
  });
  afterEach(() => {
    config.dispose();
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const tool = (name: string): FakeTool => {
    const t = fake.tools.get(name);
    assert.ok(t, `${name} is registered`);
    return t;
  };
  async function invoke(name: string, input: object = {}): Promise<{ text: string; json: Record<string, unknown> }> {
    const result = await tool(name).invoke({ input, toolInvocationToken: undefined }, new CancellationTokenSource().token) as { content: { value: string }[] };
    return { text: result.content[0].value, json: result.content[1] ? JSON.parse(result.content[1].value) : {} };
  }

  it('registers the three tools under the names the manifest declares', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
    const declared = manifest.contributes.languageModelTools.map((t: { name: string }) => t.name).sort();
    assert.deepEqual([...fake.tools.keys()].sort(), declared);
    assert.deepEqual(declared, [TOOL_NAMES.fixUntilGreen, TOOL_NAMES.rollback, TOOL_NAMES.verify].sort());
  });

  it('verify answers continue with the 2 failing tests, then stop/green after the fix, and the session lands in the Loop history', async () => {
    const first = await invoke(TOOL_NAMES.verify);
    assert.match(first.text, /^CONTINUE: check 0 of 8/);
    assert.match(first.text, /Failing now: 2 \(2 at the start, 2 at best\): `calc > adds`, `calc > multiplies`/);
    assert.equal(first.json.decision, 'continue');
    assert.equal(first.json.session, `vscode:${project}:fake-session`);
    assert.ok(terminal.some((l) => l.includes('node --test test/')), 'the test command ran in the Greenloop tests terminal');
    assert.deepEqual(historyRefreshes, [project]);

    const calc = path.join(project, 'src', 'calc.js');
    fs.writeFileSync(calc, FIXED(fs.readFileSync(calc, 'utf8')));
    const second = await invoke(TOOL_NAMES.verify);
    assert.match(second.text, /^GREEN: every test passes/);
    assert.equal(second.json.decision, 'stop');
    assert.equal(second.json.reason, 'green');
    assert.equal(second.json.verdict, 'green');

    const { records } = await new RunFiles(stateDir, project, runSecrets({ env: {} }).redactor).list();
    assert.equal(records.length, 1, 'the stopped session is one run in the history');
    assert.equal(records[0].outcome, 'green');
    assert.equal(historyRefreshes.length, 2);
  });

  // Issue 22 item 8: each check opens a new verifier, so every one of them was called "baseline" in the terminal.
  it('names each check\'s test run in the terminal by the number its answer gives', async () => {
    const calc = path.join(project, 'src', 'calc.js');
    const original = fs.readFileSync(calc, 'utf8');
    const answers = [(await invoke(TOOL_NAMES.verify)).json];
    fs.writeFileSync(calc, original.replace('return a - b;', 'return a + b;'));
    answers.push((await invoke(TOOL_NAMES.verify)).json);
    fs.writeFileSync(calc, FIXED(original));
    answers.push((await invoke(TOOL_NAMES.verify)).json);
    assert.deepEqual(answers.map((a) => [a.check, a.verdict]), [[0, 'baseline'], [1, 'progress'], [2, 'green']]);
    const headers = terminal.join('\n').match(/── Greenloop [^:]+:/g);
    // A check an outside agent asks for runs the tests once, green included (issue 22 item 10): one header per check.
    assert.deepEqual(headers, ['── Greenloop check 0 (baseline):', '── Greenloop check 1:', '── Greenloop check 2:']);
  });

  // Issue 22 item 7: "Failing now: 0 (0 at the start, 0 at best)" for tests that never ran would read as all is well.
  it('a test command that cannot run answers stop with the reason and no count', async () => {
    fake.settings.set('greenloop.testCommand', 'greenloop-no-such-command-here');
    const { text, json } = await invoke(TOOL_NAMES.verify);
    assert.equal(json.decision, 'stop');
    assert.equal(json.reason, 'verify-error');
    assert.match(text, /^STOP \(verify-error\): /);
    assert.match(text, /\nNo test count: the tests gave no usable result\.$/);
    assert.doesNotMatch(text, /Failing now/);
  });

  // Each check builds its verifier, and with the Problems view as the checker a file watcher with it: none may outlive
  // its check, or every call an agent makes would leave one more watcher on the folder.
  it('checks reading the Problems view leave no file watcher and no diagnostics listener behind, a cancelled one neither', async () => {
    fake.settings.set('greenloop.diagnostics.source', 'problems');
    const calc = path.join(project, 'src', 'calc.js');
    fake.publish(calc, [{ range: { start: { line: 1, character: 2 } }, message: 'Unreachable code detected.', severity: 0, source: 'ts', code: 7027 }]);
    const original = fs.readFileSync(calc, 'utf8');
    const checks: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      fs.writeFileSync(calc, `${original}\n// edit ${i}\n`);
      const { json } = await invoke(TOOL_NAMES.verify);
      checks.push([json.check, (json.diagnostics as unknown[]).length]);
    }
    assert.deepEqual(checks, [[0, 1], [1, 1], [2, 1]], 'three checks ran, each reading the error in the Problems view');
    assert.equal(fake.watchers.size, 0, 'no file watcher is left after 3 checks');
    assert.equal(fake.diagnosticEvents.listenerCount, 0, 'no diagnostics listener is left');
    // A check the agent cancels before it starts.
    const cancelled = new CancellationTokenSource();
    cancelled.cancel();
    await tool(TOOL_NAMES.verify).invoke({ input: {}, toolInvocationToken: undefined }, cancelled.token);
    assert.equal(fake.watchers.size, 0, 'nor after a cancelled check');
    assert.equal(fake.diagnosticEvents.listenerCount, 0);
  });

  it('rollback asks before it changes files, and puts the first checked state back', async () => {
    const prepared = await tool(TOOL_NAMES.rollback).prepareInvocation!({ input: { to: 'baseline' } }, new CancellationTokenSource().token) as { confirmationMessages?: { title: string; message: string } };
    assert.equal(prepared.confirmationMessages?.title, 'Roll back calc?');
    assert.match(prepared.confirmationMessages!.message, /back as it was in the state of its first check; later edits to those files are lost\./);
    const verifyPrepared = await tool(TOOL_NAMES.verify).prepareInvocation!({ input: {} }, new CancellationTokenSource().token) as { confirmationMessages?: unknown };
    assert.equal(verifyPrepared.confirmationMessages, undefined, 'verify changes nothing the person must approve');

    const calc = path.join(project, 'src', 'calc.js');
    const original = fs.readFileSync(calc, 'utf8');
    await invoke(TOOL_NAMES.verify);
    fs.writeFileSync(calc, original.replace('return -a;', 'return a;'));
    const back = await invoke(TOOL_NAMES.rollback, { to: 'baseline' });
    assert.match(back.text, /^Rolled back 1 file to the state of its first check: src\/calc\.js\./);
    assert.equal(fs.readFileSync(calc, 'utf8'), original);
  });

  it('in Restricted Mode every tool answers one sentence and runs nothing', async () => {
    vscodeFake.workspace.isTrusted = false;
    const calc = path.join(project, 'src', 'calc.js');
    const before = fs.readFileSync(calc, 'utf8');
    for (const name of Object.values(TOOL_NAMES)) {
      const { text, json } = await invoke(name, name === TOOL_NAMES.rollback ? { to: 'best' } : {});
      assert.equal(text, 'Greenloop runs your tests, which runs code from this workspace, so it needs a trusted workspace; trust it with "Workspaces: Manage Workspace Trust" and try again.');
      assert.deepEqual(json, {});
    }
    assert.deepEqual(terminal, [], 'no test command ran');
    assert.equal(fs.existsSync(path.join(stateDir, 'history')), false);
    assert.equal(fs.readFileSync(calc, 'utf8'), before);
  });

  it('offers one MCP server per open folder: `greenloop mcp --cwd <folder>` on VS Code\'s own Node', async () => {
    const other = tempDir('other');
    fake.workspaceFolders = [{ uri: Uri.file(project), name: 'calc', index: 0 }, { uri: Uri.file(other), name: 'other', index: 1 }];
    const context = { extensionPath: '/opt/greenloop', extension: { packageJSON: { version: '0.1.0' } } };
    registerMcpServers(context as never);
    const provider = fake.mcpProviders.get(MCP_PROVIDER_ID);
    assert.ok(provider, 'the provider is registered under the id the manifest declares');
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: MCP_PROVIDER_ID, label: 'Greenloop' }]);
    const servers = await provider.provideMcpServerDefinitions(new CancellationTokenSource().token) as { label: string; command: string; args: string[]; env: Record<string, string>; cwd?: Uri }[];
    assert.deepEqual(servers.map((s) => [s.label, s.command, s.args, s.env, s.cwd?.fsPath]), [
      ['Greenloop: calc', process.execPath, ['/opt/greenloop/dist/cli.js', 'mcp', '--cwd', project], { ELECTRON_RUN_AS_NODE: '1' }, project],
      ['Greenloop: other', process.execPath, ['/opt/greenloop/dist/cli.js', 'mcp', '--cwd', other], { ELECTRON_RUN_AS_NODE: '1' }, other],
    ]);
    vscodeFake.workspace.isTrusted = false;
    assert.throws(() => provider.resolveMcpServerDefinition!(servers[0], new CancellationTokenSource().token), /needs a trusted workspace/);
    fs.rmSync(other, { recursive: true, force: true });
  });
});

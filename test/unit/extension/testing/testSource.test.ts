import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fake, FakeMemento, ProcessExecution, ShellExecution, testTask, Uri } from '../support/fakeVscode';
import { resolveTestSpec } from '../../../../src/extension/testing/testSource';
import type * as vscode from 'vscode';

describe('where the verifier command comes from', () => {
  let dir: string;
  let folder: vscode.WorkspaceFolder;
  let other: vscode.WorkspaceFolder;
  let memento: FakeMemento;

  beforeEach(() => {
    fake.reset();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-testsource-'));
    folder = { uri: Uri.file(dir), name: 'app', index: 0 } as unknown as vscode.WorkspaceFolder;
    other = { uri: Uri.file(path.join(dir, '..', 'elsewhere')), name: 'other', index: 1 } as unknown as vscode.WorkspaceFolder;
    memento = new FakeMemento();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const spec = () => resolveTestSpec(folder, '', memento as unknown as vscode.Memento);

  it('uses the default Test task without asking, with its own cwd and env', async () => {
    fake.tasks = [
      testTask('unit', new ShellExecution('npm run unit')),
      testTask('all tests', new ShellExecution('make test', { cwd: '${workspaceFolder}/pkg', env: { CI: '1' } }), { isDefault: true }),
      { ...testTask('build', new ShellExecution('make')), group: undefined },
    ];
    const s = await spec();
    assert.strictEqual(s.command, 'make test');
    assert.strictEqual(s.cwd, path.join(dir, 'pkg'));
    assert.strictEqual(s.env?.CI, '1');
    assert.strictEqual(s.source, 'task "all tests"');
    assert.strictEqual(fake.quickPickCalls.length, 0);
  });

  it('asks once when there are several Test tasks and no default, then remembers the choice for the folder', async () => {
    fake.tasks = [
      testTask('unit', new ShellExecution('npm run unit')),
      testTask('e2e', new ProcessExecution('node', ['run e2e.js', '--fast'])),
    ];
    fake.quickPicks.push((items) => items.find((i) => i.label === 'e2e'));
    const first = await spec();
    assert.strictEqual(first.command, "node 'run e2e.js' --fast");
    assert.deepStrictEqual(fake.quickPickCalls[0].map((i) => i.label), ['unit', 'e2e']);

    const second = await spec();
    assert.strictEqual(second.command, "node 'run e2e.js' --fast");
    assert.strictEqual(fake.quickPickCalls.length, 1, 'the remembered task is used without asking again');
  });

  it('refuses to start when the person dismisses the task pick', async () => {
    fake.tasks = [testTask('a', new ShellExecution('a')), testTask('b', new ShellExecution('b'))];
    await assert.rejects(spec(), /No test task was chosen, so the run did not start/);
  });

  it('ignores Test tasks of another folder and falls back to the greenloop.testCommand setting', async () => {
    fake.tasks = [testTask('theirs', new ShellExecution('their-tests'), { scope: other })];
    const s = await resolveTestSpec(folder, 'pytest -q', memento as unknown as vscode.Memento);
    assert.deepStrictEqual({ command: s.command, cwd: s.cwd, source: s.source }, { command: 'pytest -q', cwd: dir, source: 'setting greenloop.testCommand' });
  });

  it('falls back to the package.json test script', async () => {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
    const s = await spec();
    assert.strictEqual(s.command, 'npm test');
    assert.strictEqual(s.source, 'package.json "test" script');
  });

  it("with no task, setting or test script, takes the command the folder's own runner files suggest, and says which (issue 39)", async () => {
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ 'pom.xml': '<project/>' }, 'mvn -B test', /pom\.xml/],
      [{ 'phpunit.xml.dist': '<phpunit/>' }, 'phpunit', /phpunit\.xml\.dist/],
      [{ '.rspec': '--require spec_helper', 'spec/a_spec.rb': '' }, 'rspec', /\.rspec|spec/],
      [{ 'CMakeLists.txt': 'project(x)', 'build/CMakeCache.txt': '' }, 'cmake --build build && ctest --test-dir build --output-on-failure', /CMakeLists\.txt|build/],
    ];
    for (const [files, command, because] of cases) {
      for (const e of fs.readdirSync(dir)) fs.rmSync(path.join(dir, e), { recursive: true, force: true });
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), text);
      }
      const s = await spec();
      assert.strictEqual(s.command, command, JSON.stringify(files));
      assert.match(s.source, because);
    }
  });

  it('says how to get a test command when there is none (npm\'s placeholder script does not count)', async () => {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
    await assert.rejects(spec(), (err: Error) => {
      assert.strictEqual(err.message, 'No test command for app: add a Test task (Terminal › Configure Tasks, group "test"), set greenloop.testCommand, or add a "test" script to package.json.');
      return true;
    });
  });

  it('refuses a task whose command uses a variable only VS Code could resolve', async () => {
    fake.tasks = [testTask('t', new ShellExecution('run ${input:which}'))];
    await assert.rejects(spec(), /The test task "t" uses \$\{input:which\}, which Greenloop cannot resolve/);
  });

  it('runs a task that names its own shell in that shell', async () => {
    fake.tasks = [testTask('t', new ShellExecution('echo $0', { executable: '/bin/bash', shellArgs: ['-c'] }))];
    assert.strictEqual((await spec()).command, "exec /bin/bash -c 'echo $0'");
  });
});

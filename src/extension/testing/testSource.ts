// Where the verifier's command comes from, in order: the folder's Test task (the default one, else the
// person's pick, remembered per folder), the greenloop.testCommand setting, the package.json "test" script, the
// command a runner's own files suggest (pom.xml → `mvn -B test`; each runner's suggestCommand).
import * as vscode from 'vscode';
import { findTestCommand, SetupError } from '../../verify/testCommand';
import { commandFromExecution } from './taskCommand';
import type { CommandSpec } from './taskCommand';

export interface TestSpec extends CommandSpec {
  /** What a person reads: `task "test"`, `setting greenloop.testCommand`, `package.json "test" script`. */
  source: string;
}

const TASK_CHOICE = (folder: vscode.Uri) => `greenloop.testTask:${folder.toString()}`;

function taskKey(t: vscode.Task): string {
  return `${t.source}:${t.name}`;
}

function isTestTask(t: vscode.Task): boolean {
  return t.group?.id === 'test';
}

function inFolder(t: vscode.Task, folder: vscode.WorkspaceFolder): boolean {
  const scope = t.scope as vscode.WorkspaceFolder | number | undefined;
  if (typeof scope === 'object' && scope) return scope.uri.toString() === folder.uri.toString();
  // Workspace-wide tasks belong to every folder; global ones too (user tasks).
  return true;
}

/** Test tasks of the folder, the default first. */
export async function testTasks(folder: vscode.WorkspaceFolder): Promise<vscode.Task[]> {
  const all = await vscode.tasks.fetchTasks();
  return all.filter((t) => isTestTask(t) && inFolder(t, folder))
    .sort((a, b) => Number(b.group?.isDefault === true) - Number(a.group?.isDefault === true));
}

/** Picks the test task; undefined when there is none; throws a SetupError when the person dismissed the pick. */
export async function chooseTestTask(folder: vscode.WorkspaceFolder, memento: vscode.Memento): Promise<vscode.Task | undefined> {
  const tasks = await testTasks(folder);
  if (tasks.length === 0) return undefined;
  if (tasks.length === 1) return tasks[0];
  const remembered = memento.get<string>(TASK_CHOICE(folder.uri));
  const found = tasks.find((t) => taskKey(t) === remembered);
  if (found) return found;
  // A declared default is the person's answer already, as VS Code's own "Run Test Task" treats it.
  if (tasks[0].group?.isDefault) return tasks[0];
  const pick = await vscode.window.showQuickPick(
    tasks.map((t) => ({ label: t.name, description: t.source, task: t })),
    { title: `Greenloop: which test task verifies ${folder.name}?`, placeHolder: 'Greenloop remembers the choice for this folder' },
  );
  if (!pick) throw new SetupError('No test task was chosen, so the run did not start; run Fix until green again and pick one.');
  await memento.update(TASK_CHOICE(folder.uri), taskKey(pick.task));
  return pick.task;
}

export async function resolveTestSpec(folder: vscode.WorkspaceFolder, testCommandSetting: string, memento: vscode.Memento): Promise<TestSpec> {
  const cwd = folder.uri.fsPath;
  const task = await chooseTestTask(folder, memento);
  if (task) return { ...commandFromExecution(task.execution, cwd, task.name), source: `task "${task.name}"` };
  if (testCommandSetting) return { command: testCommandSetting, cwd, source: 'setting greenloop.testCommand' };
  try {
    return { ...findTestCommand(cwd), cwd };
  } catch (err) {
    if (!(err instanceof SetupError) || err.message.startsWith('Could not read')) throw err;
    throw new SetupError(
      `No test command for ${folder.name}: add a Test task (Terminal › Configure Tasks, group "test"), set greenloop.testCommand, or add a "test" script to package.json.`,
    );
  }
}

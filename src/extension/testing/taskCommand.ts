// Turns a VS Code task's execution into the shell command, cwd and env Greenloop runs (and captures) itself,
// so the verifier sees exactly what the person's test task would run.
import * as os from 'os';
import * as path from 'path';
import { SetupError } from '../../verify/testCommand';

export interface CommandSpec {
  command: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

type QuotedArg = string | { value: string };
interface ShellLike { commandLine?: string; command?: QuotedArg; args?: QuotedArg[]; options?: { cwd?: string; env?: Record<string, string>; executable?: string; shellArgs?: string[] } }
interface ProcessLike { process: string; args?: string[]; options?: { cwd?: string; env?: Record<string, string> } }

export function shQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const argText = (a: QuotedArg): string => (typeof a === 'string' ? a : a.value);

/** ${workspaceFolder}, ${env:X} and friends; anything else cannot be known outside VS Code's task runner. */
export function resolveVariables(text: string, folder: string, taskName: string): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder' || name === 'workspaceRoot' || name === 'cwd') return folder;
    if (name === 'workspaceFolderBasename') return path.basename(folder);
    if (name === 'userHome') return os.homedir();
    if (name === 'pathSeparator') return path.sep;
    if (name.startsWith('env:')) return process.env[name.slice(4)] ?? '';
    if (name.startsWith('workspaceFolder:')) return folder;
    throw new SetupError(`The test task "${taskName}" uses ${whole}, which Greenloop cannot resolve; use a plain command in the task or set greenloop.testCommand.`);
  });
}

export function commandFromExecution(execution: unknown, folder: string, taskName: string): CommandSpec {
  const resolve = (s: string) => resolveVariables(s, folder, taskName);
  const cwdOf = (cwd: string | undefined) => (cwd ? path.resolve(folder, resolve(cwd)) : folder);
  const envOf = (env: Record<string, string> | undefined): NodeJS.ProcessEnv | undefined => {
    if (!env) return undefined;
    const merged: NodeJS.ProcessEnv = { ...process.env };
    for (const [k, v] of Object.entries(env)) merged[k] = resolve(v);
    return merged;
  };
  const e = execution as Partial<ShellLike & ProcessLike> | undefined;
  if (e && (typeof e.commandLine === 'string' || e.command !== undefined)) {
    const line = typeof e.commandLine === 'string'
      ? resolve(e.commandLine)
      : [argText(e.command!), ...(e.args ?? []).map(argText)].map(resolve).map((a, i) => (i === 0 ? a : shQuote(a))).join(' ');
    const exe = e.options?.executable;
    // A task that names its own shell runs in it, as VS Code would.
    const command = exe ? `exec ${shQuote(resolve(exe))} ${(e.options?.shellArgs ?? ['-c']).map(resolve).map(shQuote).join(' ')} ${shQuote(line)}` : line;
    return { command, cwd: cwdOf(e.options?.cwd), env: envOf(e.options?.env) };
  }
  if (e && typeof e.process === 'string') {
    const command = [e.process, ...(e.args ?? [])].map(resolve).map(shQuote).join(' ');
    return { command, cwd: cwdOf(e.options?.cwd), env: envOf(e.options?.env) };
  }
  throw new SetupError(`The test task "${taskName}" runs extension code whose output Greenloop cannot capture; choose another task or set greenloop.testCommand.`);
}

// The run service's log lines pass the run's redactor: test commands, notes, warnings and errors can quote secrets.
import type * as vscode from 'vscode';
import type { Redactor } from '../../base/redact';

export type RunLog = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;

/** `redactor` is asked on every line: each run builds its own (its key, its test task's environment). */
export function redactingLog(log: RunLog, redactor: () => Redactor): RunLog {
  return {
    info: (message: string) => log.info(redactor().text(message)),
    warn: (message: string) => log.warn(redactor().text(message)),
    error: (error: string | Error) => log.error(redactor().text(typeof error === 'string' ? error : error.message)),
  };
}

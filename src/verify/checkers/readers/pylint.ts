// pylint's `--output-format=json` (a list of messages) and `json2` (pylint 3: messages plus statistics).
// Its categories: fatal and error count as errors; warning, refactor and convention as warnings (each fails
// pylint's own exit code); info never counts.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

function isMessageList(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.every((m) => isRecord(m) && typeof m.path === 'string' && ('message-id' in m || 'messageId' in m));
}

interface Json2 {
  messages: Record<string, unknown>[];
  statistics?: unknown;
}

function isJson2(v: unknown): v is Json2 {
  return isRecord(v) && isMessageList(v.messages) && isRecord(v.statistics);
}

function isPylintReport(v: unknown): v is Record<string, unknown>[] | Json2 {
  return isMessageList(v) || isJson2(v);
}

const SEVERITY: Record<string, Severity> = {
  fatal: 'error', error: 'error', warning: 'warning', refactor: 'warning', convention: 'warning', info: 'info',
};

export const pylintReader: CheckerReader = {
  format: 'pylint',
  tool: 'pylint',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    if (/"message-id":\s*"[A-Z]\d{4}"/.test(head) && /"symbol":/.test(head)) return 0.95;
    if (/"messageId":\s*"[A-Z]\d{4}"/.test(head) && /"statistics":/.test(head)) return 0.95;
    return /^\[\]\s*$/m.test(head) ? 0.1 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isPylintReport);
    if (!report) return { ok: false, reason: 'it is not the JSON report pylint prints with --output-format=json' };
    const messages = Array.isArray(report) ? report : report.messages;
    const all: CheckerDiagnostic[] = messages.map((m) => ({
      file: workspacePath(str(m.path), opts.cwd),
      line: num(m.line),
      // pylint counts columns from 0.
      column: typeof m.column === 'number' ? m.column + 1 : 0,
      source: 'pylint',
      code: str(m.symbol) || str(m['message-id']) || str(m.messageId),
      message: str(m.message),
      severity: SEVERITY[str(m.type)] ?? 'info',
    }));
    let checkedCount: number | null = null;
    if (!Array.isArray(report) && isRecord(report.statistics) && typeof report.statistics.modulesLinted === 'number') {
      checkedCount = report.statistics.modulesLinted;
    }
    return { ok: true, report: makeReport('pylint', { all, checkedCount }, opts) };
  },
};

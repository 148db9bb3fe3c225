// The annotations of one run: one for the outcome, one per test still failing and per diagnostic, each on its file
// and line where known. GitHub shows at most 10 error annotations per step, so the tenth says how many more there are.
import * as path from 'path';
import { isFullReport } from './runFacts';
import type { FailureDetail, RunFacts } from './runFacts';

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  title: string;
  message: string;
  /** Relative to the repository root, as GitHub places annotations. */
  file?: string;
  startLine?: number;
  startColumn?: number;
}

export const MAX_ERRORS = 10;
const MESSAGE_CHARS = 1_000;

export interface Where {
  /** The working directory the runner's and the checkers' file names are relative to. */
  cwd: string;
  /** The repository root (GITHUB_WORKSPACE, or git's top level). */
  repoRoot: string;
}

export function annotationsFor(facts: RunFacts, where: Where): Annotation[] {
  const { report } = facts;
  const out: Annotation[] = [outcomeAnnotation(facts)];
  if (!isFullReport(report)) return out;
  const failures = new Map((facts.details?.failures ?? []).map((f) => [f.id, f]));
  const errors: Annotation[] = [
    ...report.final.failing.map((id) => failureAnnotation(id, failures.get(id), where)),
    ...(facts.details?.loadErrors ?? []).map((l) => ({ level: 'error' as const, title: 'Test file did not load', message: clip(l.message || l.file), ...place(l.file, undefined, undefined, where) })),
    ...(facts.details?.diagnostics ?? []).map((d) => ({ level: 'error' as const, title: d.code || 'Diagnostic', message: clip(d.message), ...place(d.file, d.line, d.column, where) })),
  ];
  if (errors.length > MAX_ERRORS) {
    const more = errors.length - (MAX_ERRORS - 1);
    out.push(...errors.slice(0, MAX_ERRORS - 1), { level: 'error', title: 'More failures', message: `…and ${more} more failing tests and diagnostics: see the job summary and the report.` });
  } else {
    out.push(...errors);
  }
  return out;
}

function outcomeAnnotation({ report }: RunFacts): Annotation {
  const attempts = report.iterations.length;
  switch (report.outcome) {
    case 'green':
      return { level: 'notice', title: 'Greenloop: green', message: attempts ? `The tests pass after ${attempts} attempt${attempts === 1 ? '' : 's'}; the patch is in the job summary and the artifacts.` : report.reasonText || 'The tests already pass.' };
    case 'escalated':
      return { level: 'warning', title: `Greenloop escalated${report.reason ? ` (${report.reason})` : ''}`, message: clip(report.reasonText) };
    case 'cancelled':
      return { level: 'warning', title: 'Greenloop cancelled', message: clip(report.reasonText || 'The job was cancelled.') };
    default:
      return { level: 'error', title: 'Greenloop could not run', message: clip(report.reasonText) };
  }
}

function failureAnnotation(id: string, detail: FailureDetail | undefined, where: Where): Annotation {
  const message = detail?.message ? `${id}\n${detail.message}` : id;
  const at = detail?.file ? lineIn(detail.message, detail.file, where.cwd) : undefined;
  return { level: 'error', title: `Failing test: ${id}`, message: clip(message), ...(detail?.file ? place(detail.file, at?.line, at?.column, where) : {}) };
}

/** The file as GitHub wants it (relative to the repository root), or nothing for a file outside the repository. */
function place(file: string, line: number | undefined, column: number | undefined, where: Where): Pick<Annotation, 'file' | 'startLine' | 'startColumn'> {
  const rel = path.relative(where.repoRoot, path.resolve(where.cwd, file.replace(/^file:\/\//, '')));
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return {};
  return { file: rel.split(path.sep).join('/'), ...(line ? { startLine: line } : {}), ...(line && column ? { startColumn: column } : {}) };
}

/** The line of `file` a stack trace or assertion in the message points at ("at … (test/a.test.js:12:7)"). */
export function lineIn(message: string, file: string, cwd: string): { line: number; column?: number } | undefined {
  const target = path.resolve(cwd, file.replace(/^file:\/\//, ''));
  for (const m of message.matchAll(/(?:file:\/\/)?([^\s()'"`]+?):(\d+)(?::(\d+))?(?=[\s)'"`,]|$)/g)) {
    if (path.resolve(cwd, m[1]) === target) return { line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS - 1)}…` : text;
}

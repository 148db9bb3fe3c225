// Biome's `--reporter=json` (lint, check, ci): a summary and the diagnostics, printed after its text diagnostics.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

interface BiomeReport {
  summary: Record<string, unknown>;
  diagnostics: unknown[];
}

function isBiomeReport(v: unknown): v is BiomeReport {
  return isRecord(v) && isRecord(v.summary) && Array.isArray(v.diagnostics);
}

const SEVERITY: Record<string, Severity> = { fatal: 'error', error: 'error', warning: 'warning' };

export const biomeReader: CheckerReader = {
  format: 'biome',
  tool: 'Biome',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    return /^\{"summary":\{/m.test(head) && /"diagnostics":\[/.test(head) ? 0.95 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isBiomeReport);
    if (!report) return { ok: false, reason: 'it is not the JSON report Biome prints with --reporter=json' };
    const hidden = num(report.summary.diagnosticsNotPrinted);
    // Biome prints 20 diagnostics by default: a witness of the first 20 would call fixing the 21st no progress.
    if (hidden > 0) {
      return { ok: false, reason: `Biome left ${hidden} diagnostics out of its report; add --max-diagnostics=none to the command` };
    }
    const all: CheckerDiagnostic[] = [];
    for (const d of report.diagnostics) {
      if (!isRecord(d)) continue;
      const location = isRecord(d.location) ? d.location : {};
      const start = isRecord(location.start) ? location.start : {};
      all.push({
        file: workspacePath(str(location.path), opts.cwd),
        line: num(start.line),
        column: num(start.column),
        source: 'biome',
        code: str(d.category),
        message: str(d.message),
        severity: SEVERITY[str(d.severity)] ?? 'info',
      });
    }
    const s = report.summary;
    const counted = 'changed' in s || 'unchanged' in s ? num(s.changed) + num(s.unchanged) : null;
    return { ok: true, report: makeReport('biome', { all, checkedCount: counted }, opts) };
  },
};

// Captured checker outputs (test/fixtures/regenerate/checkers.sh) and the root their absolute paths were written as.
import { strict as assert } from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import type { CheckerReader, CheckerReport, ReadOptions } from '../../../src/verify/checkers/checkerTypes';

export const CAPTURED = join(__dirname, '..', '..', 'fixtures', 'captured', 'checkers');
/** Where the capture script says the projects were (it rewrites its scratch folder to this). */
export const ROOT = '/home/dev/project';

export function capture(tool: string, name: string): string {
  return readFileSync(join(CAPTURED, tool, `${name}.txt`), 'utf8');
}

/** The exit code the checker really returned for a capture. */
export function exitCodeOf(tool: string, name: string): number {
  const line = readFileSync(join(CAPTURED, tool, 'exit-codes.txt'), 'utf8').split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `no exit code recorded for ${tool}/${name}`);
  return Number(line.split(' ')[1]);
}

export function read(reader: CheckerReader, text: string, opts: Partial<ReadOptions> = {}): CheckerReport {
  const out = reader.read(text, { cwd: ROOT, ...opts });
  assert.ok(out.ok, out.ok ? '' : out.reason);
  return out.report;
}

/** "file:line:col code severity" per finding: what a person would check first. */
export function brief(report: CheckerReport, which: 'diagnostics' | 'all' = 'diagnostics'): string[] {
  return report[which].map((d) => `${d.file}:${d.line}:${d.column} ${d.source} ${d.code} ${d.severity}`);
}

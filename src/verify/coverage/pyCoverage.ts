// pytest under coverage.py (`python -m coverage run -m pytest …`), when the python that runs the tests can import
// it; read back with `coverage json`. The whole run is one unit.
import { execFile, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { CoverageUnit } from './ochiai';

/** The python that runs pytest for these words: `python -m pytest`'s own, or the interpreter of pytest's script. */
export function pythonOf(runner: string, pathVar: string | undefined, cwd: string): string | null {
  if (/(^|\/)python[\d.]*$/.test(runner)) return runner;
  const script = runner.includes('/') ? path.resolve(cwd, runner) : onPath(runner, pathVar);
  if (!script) return null;
  try {
    const first = fs.readFileSync(script, 'utf8').slice(0, 300).split('\n')[0];
    const m = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(first);
    if (!m) return null;
    return /(^|\/)env$/.test(m[1]) && m[2] ? m[2] : m[1];
  } catch {
    return null;
  }
}

function onPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    if (dir && fs.existsSync(file)) return file;
  }
  return null;
}

/** Whether `python` can import coverage (one short process). */
export function hasCoveragePy(python: string, env: NodeJS.ProcessEnv, cwd: string): boolean {
  try {
    execFileSync(python, ['-c', 'import coverage'], { env, cwd, stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

export async function readCoveragePy(python: string, dataFile: string, cwd: string, env: NodeJS.ProcessEnv, failed: boolean): Promise<CoverageUnit[] | { why: string }> {
  if (!fs.existsSync(dataFile)) return { why: 'coverage.py wrote no data (the tests may not have started)' };
  const out = `${dataFile}.json`;
  const ok = await new Promise<boolean>((resolve) => {
    execFile(python, ['-m', 'coverage', 'json', `--data-file=${dataFile}`, '-o', out, '-q'], { env, cwd, timeout: 60_000 }, (err) => resolve(!err || fs.existsSync(out)));
  });
  if (!ok) return { why: 'coverage.py could not write its JSON report' };
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { files?: Record<string, { executed_lines?: number[] }> };
  const lines = new Map<string, Set<number>>();
  for (const [file, facts] of Object.entries(report.files ?? {})) {
    const rel = path.isAbsolute(file) ? path.relative(cwd, file) : file;
    if (rel.startsWith('..') || rel.split(path.sep).some((p) => p === 'site-packages' || p.startsWith('.'))) continue;
    if (facts.executed_lines?.length) lines.set(rel.split(path.sep).join('/'), new Set(facts.executed_lines));
  }
  return lines.size ? [{ failed, lines }] : [];
}

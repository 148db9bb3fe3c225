// pytest or unittest under coverage.py, when the python that runs the tests can import it: one process runs the
// runner's module with coverage started and writes the JSON report at its end. The whole run is one unit.
import * as fs from 'fs';
import * as path from 'path';
import type { CoverageUnit } from '../runner';

/** The python that runs pytest for these words: `python -m pytest`'s own, or the interpreter of pytest's script. */
export function pythonOf(runner: string, pathVar: string | undefined, cwd: string): string | null {
  if (/(^|\/)python[\d.]*$/.test(runner)) return runner;
  const script = runner.includes('/') ? path.resolve(cwd, runner) : onPath(runner, pathVar);
  if (!script) return null;
  try {
    const first = fs.readFileSync(script, 'utf8').slice(0, 300).split('\n')[0];
    const m = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(first);
    if (!m) return null;
    const interpreter = /(^|\/)env$/.test(m[1]) && m[2] ? m[2] : m[1];
    // A version manager's shim (pyenv's is a bash script) names no python: better no coverage than a wrong interpreter.
    return /(^|\/)python[\d.]*$/.test(interpreter) ? interpreter : null;
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

/**
 * The runner's module (`pytest`, `unittest`) run by the same python under coverage.py, its JSON report written at the
 * end; without coverage.py the tests run all the same and the report says so. The runner's exit code is the command's.
 */
export function moduleUnderCoverage(module: 'pytest' | 'unittest', report: string): string {
  return [
    'import json, runpy, sys',
    `out = ${JSON.stringify(report)}`,
    'try:',
    '    import coverage',
    '    cov = coverage.Coverage(data_file=None)',
    'except Exception as e:',
    '    cov = None',
    '    json.dump({"missing": str(e)}, open(out, "w"))',
    'if cov: cov.start()',
    // unittest names itself after argv[0] in its usage line, as `python -m unittest` does.
    `sys.argv[0] = ${JSON.stringify(module === 'unittest' ? 'python -m unittest' : 'pytest')}`,
    'code = 0',
    'try:',
    `    runpy.run_module(${JSON.stringify(module)}, run_name='__main__', alter_sys=True)`,
    'except SystemExit as e:',
    '    code = e.code',
    'finally:',
    '    if cov:',
    '        cov.stop()',
    '        cov.json_report(outfile=out)',
    'sys.exit(code)',
  ].join('\n');
}

export function readCoverageJson(out: string, cwd: string, failed: boolean, python: string): CoverageUnit[] | { why: string } {
  let report: { missing?: string; files?: Record<string, { executed_lines?: number[] }> };
  try {
    report = JSON.parse(fs.readFileSync(out, 'utf8'));
  } catch {
    return { why: 'coverage.py wrote no report (the tests may not have started)' };
  }
  if (report.missing !== undefined) return { why: `coverage.py is not importable by ${python} (pip install coverage)` };
  const lines = new Map<string, Set<number>>();
  for (const [file, facts] of Object.entries(report.files ?? {})) {
    const rel = path.isAbsolute(file) ? path.relative(cwd, file) : file;
    if (rel.startsWith('..') || rel.split(path.sep).some((p) => p === 'site-packages' || p.startsWith('.'))) continue;
    if (facts.executed_lines?.length) lines.set(rel.split(path.sep).join('/'), new Set(facts.executed_lines));
  }
  return lines.size ? [{ failed, lines }] : [];
}

// The whole list of files a checker analysed, for the checkers whose report names only the files with findings:
// cargo check/clippy (the dep-info file rustc writes beside each crate it checked lists every source file of that
// crate) and go vet (the files `go list` builds for each package of the module: build constraints and file-name
// suffixes applied as vet applies them). With the whole list, a file the attempt filled with code the checker does
// not analyse is known (core/judge/checkedFiles.ts). When the list cannot be had, the report stays as it was.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../base/process/runCommand';
import type { CheckerReport, CheckRunOptions } from './checkerTypes';
import { isRecord, str, workspacePath } from './readers/readerTools';

/** The report with `checked` made whole where the checker's kind allows it; otherwise the report unchanged. */
export async function withAnalysedFiles(report: CheckerReport, output: string, opts: CheckRunOptions): Promise<CheckerReport> {
  if (report.checkedIsComplete) return report;
  const files = report.format === 'cargo-json' ? cargoFiles(output, opts.cwd) : report.format === 'go-vet' ? await goFiles(opts) : null;
  if (!files) return report;
  return { ...report, checked: [...new Set([...files, ...report.checked])].sort(), checkedIsComplete: true };
}

/**
 * The source files of every workspace crate cargo checked, from the dep-info (`.d`) beside each artifact it names.
 * Only a finished build names every artifact: a crate that failed to compile has no artifact message, so its files
 * are unknown and the list is not whole (null).
 */
export function cargoFiles(output: string, cwd: string): string[] | null {
  let finished = false;
  let artifacts = 0;
  const files = new Set<string>();
  for (const raw of output.split('\n')) {
    if (!raw.startsWith('{"reason":')) continue;
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      continue;
    }
    if (!isRecord(msg)) continue;
    if (msg.reason === 'build-finished') finished = msg.success === true;
    if (msg.reason !== 'compiler-artifact' || !/^path\+file:\/\/|\(path\+file:\/\//.test(str(msg.package_id))) continue;
    const target = isRecord(msg.target) ? msg.target : {};
    // A build script is compiled, not checked: its files are not what the check reads.
    if (Array.isArray(target.kind) && target.kind.includes('custom-build')) continue;
    const metadata = (Array.isArray(msg.filenames) ? msg.filenames : []).map(str).find((f) => /\.(?:rmeta|rlib)$/.test(f));
    if (!metadata) return null;
    const depInfo = path.join(path.dirname(metadata), `${path.basename(metadata).replace(/^lib/, '').replace(/\.(?:rmeta|rlib)$/, '')}.d`);
    // rustc runs in the workspace root, where the dep-info's relative paths start (as the findings' file names do).
    const listed = depInfoFiles(depInfo, cwd);
    if (!listed) return null;
    artifacts++;
    for (const f of listed) {
      const rel = workspacePath(f, cwd);
      if (!path.isAbsolute(rel)) files.add(rel);
    }
  }
  return finished && artifacts > 0 ? [...files].sort() : null;
}

/** The prerequisites of a Makefile-style dep-info file (`target: a.rs b.rs`, spaces escaped), made absolute. */
function depInfoFiles(file: string, base: string): string[] | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const first = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
  if (!first) return null;
  const colon = first.search(/:(?:\s|$)/);
  const deps = first.slice(colon + 1).trim().match(/(?:\\ |[^\s])+/g) ?? [];
  return deps.map((d) => path.resolve(base, d.replace(/\\ /g, ' ')));
}

// Every Go file of every package, one package a line: its folder, then its files, tab-separated.
const GO_LIST_TEMPLATE = '{{.Dir}}{{range .GoFiles}}{{"\\t"}}{{.}}{{end}}{{range .CgoFiles}}{{"\\t"}}{{.}}{{end}}{{range .TestGoFiles}}{{"\\t"}}{{.}}{{end}}{{range .XTestGoFiles}}{{"\\t"}}{{.}}{{end}}';

/**
 * The files go vet analyses in the module at the workspace root: those `go list ./...` builds for this machine. Which
 * packages the check command names is not read, so the list may be larger than vet's: a file is never called
 * unanalysed because of that. Null when go list cannot say (no module here, go missing).
 */
async function goFiles(opts: CheckRunOptions): Promise<string[] | null> {
  const run = await runCommand({ command: `go list -e -f '${GO_LIST_TEMPLATE}' ./...`, cwd: opts.cwd, env: opts.env, timeoutMs: opts.timeoutMs, signal: opts.signal, headBytes: 16 * 1024 * 1024 });
  if (run.exitCode !== 0 || run.timedOut || run.cancelled || run.droppedBytes > 0) return null;
  const files: string[] = [];
  for (const line of run.output.split('\n')) {
    const [dir, ...names] = line.split('\t');
    if (!path.isAbsolute(dir)) continue; // what go printed besides the list ("go: downloading …")
    for (const name of names) files.push(workspacePath(path.join(dir, name), opts.cwd));
  }
  return files.length ? files.sort() : null;
}

// Which functions a project's suite covers, from one covered run of the whole suite: V8's own coverage for a
// node-based runner (NODE_V8_COVERAGE), coverage.py for Python, `go test -coverprofile` for Go. A project without one
// here (kind 'none') counts every function of its sources, and only the kept mutants — those a test sees — say more.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Project } from './projects';
import type { Fn } from './mutate';

/** 1-based executed lines per file (relative to the root). */
export type Lines = Map<string, Set<number>>;

export interface Covered { lines: Lines | null; seconds: number; plainSeconds: number; note: string }

export function run(cmd: string, cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 20 * 60_000): Promise<{ code: number; out: string; seconds: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    execFile('bash', ['-c', cmd], { cwd, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, CI: '1', NO_COLOR: '1', GOFLAGS: '-mod=mod', GOPROXY: 'off', ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) || 1 : 0, out: stdout + stderr, seconds: (Date.now() - t0) / 1000 }));
  });
}

const add = (lines: Lines, file: string, from: number, to: number) => {
  if (!lines.has(file)) lines.set(file, new Set());
  const s = lines.get(file)!;
  for (let l = from; l <= to; l++) s.add(l);
};

interface V8Range { startOffset: number; endOffset: number; count: number }

/** Lines whose first character's innermost V8 range ran (a function's own range, or a block inside it). */
function v8Lines(cwd: string, dir: string): Lines {
  const lines: Lines = new Map();
  const root = fs.realpathSync(cwd);
  for (const f of fs.readdirSync(dir)) {
    const data = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { result: { url: string; functions: { ranges: V8Range[] }[] }[] };
    for (const script of data.result) {
      if (!script.url.startsWith('file://')) continue;
      const file = fs.existsSync(new URL(script.url)) ? fs.realpathSync(new URL(script.url)) : '';
      if (!file.startsWith(root + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
      const text = fs.readFileSync(file, 'utf8');
      const ranges = script.functions.flatMap((fn) => fn.ranges);
      const rel = path.relative(root, file);
      let offset = 0;
      text.split('\n').forEach((line, i) => {
        const at = offset + Math.max(0, line.search(/\S/));
        offset += line.length + 1;
        if (!line.trim()) return;
        const inner = ranges.filter((r) => r.startOffset <= at && at < r.endOffset).sort((a, b) => a.endOffset - a.startOffset - (b.endOffset - b.startOffset))[0];
        if (inner && inner.count > 0) add(lines, rel, i + 1, i + 1);
      });
    }
  }
  return lines;
}

function pythonLines(cwd: string, json: string): Lines {
  const lines: Lines = new Map();
  const data = JSON.parse(fs.readFileSync(json, 'utf8')) as { files: Record<string, { executed_lines: number[] }> };
  for (const [f, v] of Object.entries(data.files)) {
    const rel = path.isAbsolute(f) ? path.relative(cwd, f) : f;
    for (const l of v.executed_lines) add(lines, rel, l, l);
  }
  return lines;
}

/** go test -coverprofile: `module/path/file.go:l1.c1,l2.c2 statements count`; the file is named by its module path. */
function goLines(cwd: string, profile: string): Lines {
  const lines: Lines = new Map();
  const mod = /^module\s+(\S+)/m.exec(fs.readFileSync(path.join(cwd, 'go.mod'), 'utf8'))![1];
  for (const l of fs.readFileSync(profile, 'utf8').split('\n').slice(1)) {
    const m = /^(.+):(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/.exec(l);
    if (!m || m[4] === '0') continue;
    add(lines, m[1].startsWith(mod + '/') ? m[1].slice(mod.length + 1) : m[1], Number(m[2]), Number(m[3]));
  }
  return lines;
}

/** One covered run of the whole suite in `cwd` (a pristine workspace), timed beside one plain run. */
export async function coveredLines(p: Project, cwd: string, scratch: string): Promise<Covered> {
  const plain = await run(p.testCmd, cwd);
  if (plain.code !== 0) throw new Error(`${p.name}: its own tests fail on the pristine tree (exit ${plain.code}), so no mutant of it can be measured:\n${plain.out.slice(-2000)}`);
  if (p.coverage === 'none') return { lines: null, seconds: 0, plainSeconds: plain.seconds, note: 'no covered run: every function of the sources is drawn from' };
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  let cmd = p.testCmd;
  let env: NodeJS.ProcessEnv = {};
  if (p.coverage === 'v8') env = { NODE_V8_COVERAGE: scratch };
  if (p.coverage === 'python') cmd = p.testCmd.replace(/(\/usr\/bin\/python3|python3) -m pytest/, `$1 -m coverage run --data-file=${scratch}/data -m pytest`) + ` && /usr/bin/python3 -m coverage json --data-file=${scratch}/data -o ${scratch}/cov.json`;
  if (p.coverage === 'go') cmd = `${p.testCmd} -coverprofile=${scratch}/cover.out`;
  const r = await run(cmd, cwd, env);
  if (r.code !== 0) throw new Error(`${p.name}: the covered run failed (exit ${r.code}):\n${r.out.slice(-2000)}`);
  const lines = p.coverage === 'v8' ? v8Lines(cwd, scratch) : p.coverage === 'python' ? pythonLines(cwd, `${scratch}/cov.json`) : goLines(cwd, `${scratch}/cover.out`);
  return { lines, seconds: r.seconds, plainSeconds: plain.seconds, note: `${p.coverage} coverage of the whole suite` };
}

/** A function counts as covered when a line of its body (past the line that declares it) ran. */
export function isCovered(fn: Fn, lines: Lines | null): boolean {
  if (!lines) return true;
  const got = lines.get(fn.file);
  if (!got) return false;
  for (let l = fn.start + 1; l <= fn.end; l++) if (got.has(l)) return true;
  return false;
}

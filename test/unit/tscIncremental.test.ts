// tsc with its build info in the run's state folder: the second check re-checks nothing that did not change, still
// finds what did, and nothing is written into the workspace — even when its tsconfig asks for build info of its own.
import { strict as assert } from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { tscParser } from '../../src/runners/readers/tsc';
import { detectTsc, tscBuildInfoFile, tscCommand } from '../../src/verify/tsc';
import { CommandVerifier } from '../../src/verify/commandVerifier';

const realTsc = join(__dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');

function run(command: string, cwd: string): Promise<string> {
  return new Promise((resolve) => execFile('/bin/sh', ['-c', command], { cwd }, (_e, out, err) => resolve(out + err)));
}

/** Every file and folder under `dir` with its size and modification time: any write shows. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const s = fs.lstatSync(p);
      out.push(`${relative(dir, p)} ${s.size} ${s.mtimeMs}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

describe('incremental tsc with its build info in the state folder', function () {
  this.timeout(120_000);
  let root: string;
  let ws: string;
  let state: string;
  beforeEach(() => {
    root = fs.mkdtempSync(join(tmpdir(), 'greenloop-tsc-inc-'));
    ws = join(root, 'work space');
    state = join(root, 'state', 'tsc');
    fs.mkdirSync(join(ws, 'src'), { recursive: true });
    fs.mkdirSync(join(ws, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(realTsc, join(ws, 'node_modules', '.bin', 'tsc'));
    // A project that asks for build info of its own, in the workspace: the state folder must win.
    fs.writeFileSync(join(ws, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, incremental: true, tsBuildInfoFile: './own.tsbuildinfo', types: [], target: 'ES2022', lib: ['ES2022'], skipLibCheck: true },
      include: ['src'],
    }));
    for (let i = 0; i < 20; i++) fs.writeFileSync(join(ws, 'src', `m${i}.ts`), `export const f${i} = (a: number): string => a.toFixed(${i % 5});\n`);
    fs.writeFileSync(join(ws, 'src', 'bad.ts'), 'export const n: number = "x";\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('re-checks nothing unchanged, finds a new error, and writes only into the state folder', async () => {
    const info = detectTsc(ws)!;
    const command = tscCommand(info, { buildInfoDir: state });
    const before = listing(ws);
    // --extendedDiagnostics prints "Check time" only when tsc type-checked something.
    const first = await run(`${command} --extendedDiagnostics`, ws);
    assert.deepEqual(tscParser.parse(first).diagnostics.map((d) => `${d.file} ${d.code}`), ['src/bad.ts TS2322']);
    assert.match(first, /^Check time:/m, 'the first check type-checks the project');
    assert.ok(fs.existsSync(tscBuildInfoFile(state, info.tsconfig)), 'the build info is in the state folder');

    const second = await run(`${command} --extendedDiagnostics`, ws);
    assert.deepEqual(tscParser.parse(second).diagnostics.map((d) => `${d.file} ${d.code}`), ['src/bad.ts TS2322'], 'the error is still reported');
    assert.doesNotMatch(second, /^Check time:/m, 'nothing was checked again');
    assert.deepEqual(listing(ws), before, 'nothing was written into the workspace');

    fs.writeFileSync(join(ws, 'src', 'm3.ts'), 'export const f3 = (a: number): string => a;\n');
    const third = tscParser.parse(await run(command, ws));
    assert.deepEqual(third.diagnostics.map((d) => `${d.file} ${d.code}`).sort(), ['src/bad.ts TS2322', 'src/m3.ts TS2322']);
    assert.ok(!fs.existsSync(join(ws, 'own.tsbuildinfo')));
  });

  it('without a state folder the command is the whole check it always was', () => {
    const info = detectTsc(ws)!;
    assert.doesNotMatch(tscCommand(info), /incremental|tsBuildInfoFile/);
  });

  it('the verifier passes its state folder to tsc', async () => {
    fs.mkdirSync(join(ws, 'test'));
    fs.writeFileSync(join(ws, 'test', 'a.test.js'), "require('node:test')('passes', () => {});\n");
    const before = listing(ws);
    const v = new CommandVerifier({ cwd: ws, testCommand: 'node --test test/', tsc: 'on', timeoutMs: 60_000, tscBuildInfoDir: state });
    for (let i = 0; i < 2; i++) {
      const w = await v.verify();
      assert.deepEqual(w.diagnostics.map((d) => `${d.file} ${d.code}`), ['src/bad.ts TS2322']);
    }
    assert.ok(fs.existsSync(tscBuildInfoFile(state, detectTsc(ws)!.tsconfig)));
    assert.deepEqual(listing(ws), before, 'nothing was written into the workspace');
  });
});

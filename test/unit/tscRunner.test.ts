// detectTsc / tscCommand / diagnosticKey on real temp workspaces with a real tsc (the repo's own typescript,
// linked in as the workspace's node_modules/.bin/tsc, as npm would install it).
import { strict as assert } from 'assert';
import { execFile } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { tscParser } from '../../src/runners/readers/tsc';
import { detectTsc, tscCommand } from '../../src/verify/tsc';
import { diagnosticKey } from '../../src/core/judge/diagnosticKey';
import type { Diagnostic } from '../../src/ports/verifier';

const realTsc = join(__dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');

function run(command: string, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', command], { cwd }, (_err, stdout, stderr) => resolve(stdout + stderr));
  });
}

function workspace(root: string, opts: { tsconfig?: boolean; tsc?: boolean }): string {
  const ws = mkdtempSync(join(root, 'ws '));
  if (opts.tsconfig) {
    writeFileSync(join(ws, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, types: [], target: 'ES2022', lib: ['ES2022'], skipLibCheck: true }, include: ['src'],
    }));
  }
  if (opts.tsc) {
    mkdirSync(join(ws, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(realTsc, join(ws, 'node_modules', '.bin', 'tsc'));
  }
  return ws;
}

async function check(ws: string): Promise<Diagnostic[]> {
  const info = detectTsc(ws);
  assert.ok(info);
  const result = tscParser.parse(await run(tscCommand(info), ws));
  assert.equal(result.loadError, false);
  return result.diagnostics;
}

describe('tsc in the workspace', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'greenloop-tsc-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the workspace\'s own tsc and tsconfig.json, and nothing when either is missing', () => {
    const both = workspace(root, { tsconfig: true, tsc: true });
    assert.deepEqual(detectTsc(both), {
      tscPath: join(both, 'node_modules', '.bin', 'tsc'),
      tsconfig: join(both, 'tsconfig.json'),
    });
    assert.equal(detectTsc(workspace(root, { tsconfig: true })), null);
    assert.equal(detectTsc(workspace(root, { tsc: true })), null);
  });

  it('builds a command that type-checks the project, even from a folder with spaces in its name', async () => {
    const ws = workspace(root, { tsconfig: true, tsc: true });
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'a.ts'), 'export const n: number = "one";\n');
    writeFileSync(join(ws, 'src', 'b.ts'), 'export const ok: number = 1;\n');
    const info = detectTsc(ws)!;
    // Run from elsewhere: the command must carry the project path itself.
    const diagnostics = tscParser.parse(await run(tscCommand(info), root)).diagnostics;
    assert.deepEqual(diagnostics.map((d) => [d.code, d.line, d.column]), [['TS2322', 1, 14]]);
    assert.match(diagnostics[0].file, /src\/a\.ts$/);
    writeFileSync(join(ws, 'src', 'a.ts'), 'export const n: number = 1;\n');
    assert.deepEqual(await check(ws), []);
  });

  it('gives the same key to a diagnostic that moved 3 lines down, and another key to a different error', async () => {
    const ws = workspace(root, { tsconfig: true, tsc: true });
    mkdirSync(join(ws, 'src'));
    const file = join(ws, 'src', 'a.ts');
    writeFileSync(file, 'export const n: number = "one";\nexport const s: string = missing;\n');
    const before = await check(ws);
    assert.deepEqual(before.map((d) => d.code), ['TS2322', 'TS2304']);

    writeFileSync(file, '// one\n// two\n// three\n' + readFileSync(file, 'utf8'));
    const after = await check(ws);
    assert.deepEqual(after.map((d) => d.line), before.map((d) => d.line + 3));
    assert.deepEqual(after.map((d) => diagnosticKey(d)), before.map((d) => diagnosticKey(d)));
    assert.notEqual(diagnosticKey(after[0]), diagnosticKey(after[1]));
  });

  it('tells apart two codes on the same spot, and ignores whitespace and the workspace root in paths', () => {
    const d: Diagnostic = { file: 'src/a.ts', line: 3, column: 7, code: 'TS2322', message: "Type 'string' is not assignable." };
    assert.notEqual(diagnosticKey(d), diagnosticKey({ ...d, code: 'TS2345' }));
    assert.notEqual(diagnosticKey(d), diagnosticKey({ ...d, file: 'src/b.ts' }));
    assert.notEqual(diagnosticKey(d), diagnosticKey({ ...d, message: "Type 'number' is not assignable." }));
    assert.equal(
      diagnosticKey({ ...d, message: "Type 'string'\n   is not  assignable." }),
      diagnosticKey(d),
    );
    const abs = { ...d, file: '/home/me/proj/src/a.ts', message: "Cannot find module '/home/me/proj/src/x'." };
    const other = { ...d, file: '/tmp/clone/src/a.ts', message: "Cannot find module '/tmp/clone/src/x'." };
    assert.equal(diagnosticKey(abs, '/home/me/proj'), diagnosticKey(other, '/tmp/clone/'));
    assert.equal(diagnosticKey(abs, '/home/me/proj'), diagnosticKey({ ...d, message: "Cannot find module 'src/x'." }));
  });
});

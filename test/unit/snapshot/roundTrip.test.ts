import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { fingerprint, fingerprintDiff, git, tempDirs, write } from './support';

/** Small deterministic PRNG so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Regular files the mutations may touch: never ignored or excluded ones, never through a link.
function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (!rel && ['.git', 'node_modules', '.gitignore'].includes(e.name)) continue;
    if (e.name.endsWith('.log')) continue;
    if (e.isDirectory()) out.push(...listFiles(root, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

// npm test draws 50 pairs (each finds every kind of mutation several times); `npm run test:heavy` the full 200.
const PAIRS = Number(process.env.GREENLOOP_SNAPSHOT_PAIRS ?? 50);

describe(`snapshot store: ${PAIRS} snapshot/restore pairs${PAIRS > 50 ? " @heavy" : ""}`, () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  it('leaves the folder byte-identical to a cp -a copy taken before', async function () {
    this.timeout(180_000);
    const ws = dirs.make('ws');
    git(ws, ['init', '-q']);
    write(ws, '.gitignore', '*.log\n');
    write(ws, 'src/index.ts', 'export {};\r\n');
    write(ws, 'src/deep/a b/ü.ts', 'const ü = 1;\n');
    write(ws, 'bin/run.sh', '#!/bin/sh\n', 0o755);
    write(ws, 'empty.txt', '');
    write(ws, 'data.bin', Buffer.from([0, 1, 2, 255, 13, 10]));
    write(ws, 'app.log', 'ignored\n');
    write(ws, 'node_modules/x/index.js', 'dep\n');
    fs.symlinkSync('src/index.ts', path.join(ws, 'link.ts'));
    git(ws, ['add', '.']);
    git(ws, ['commit', '-qm', 'init']);
    const copy = path.join(dirs.make('copy'), 'ws');
    execFileSync('cp', ['-a', ws, copy]);

    const rnd = prng(20240601);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state'), onWarning: () => undefined });
    const mutations: Array<() => void> = [
      () => write(ws, pick(listFiles(ws)), `edit ${rnd()}\n`),
      () => write(ws, `${pick(['src', 'src/deep', 'new dir', 'src/deep/a b'])}/n${Math.floor(rnd() * 5)}.ts`, 'created\n'),
      () => fs.rmSync(path.join(ws, pick([...listFiles(ws), 'link.ts'])), { force: true }),
      () => fs.rmSync(path.join(ws, pick(['src', 'bin', 'src/deep'])), { recursive: true, force: true }),
      () => {
        const f = path.join(ws, pick(listFiles(ws)));
        fs.chmodSync(f, fs.statSync(f).mode ^ 0o111);
      },
      () => {
        const f = pick(listFiles(ws));
        fs.rmSync(path.join(ws, f));
        write(ws, `${f}/inner.txt`, 'file became a directory');
      },
      () => {
        fs.rmSync(path.join(ws, 'link.ts'), { force: true });
        fs.symlinkSync(pick(['../elsewhere', 'bin/run.sh', '/etc/hostname']), path.join(ws, 'link.ts'));
      },
      () => write(ws, pick(listFiles(ws)), Buffer.from(`crlf\r\nthen lf\n${rnd()}`)),
    ];

    for (let i = 0; i < PAIRS; i++) {
      const s = await store.snapshot(`pair ${i}`);
      const n = 1 + Math.floor(rnd() * 4);
      for (let k = 0; k < n; k++) pick(mutations)();
      await store.restore(s.id);
      if (i % 10 === 0) assert.deepEqual(fingerprintDiff(fingerprint(copy), fingerprint(ws)), [], `after pair ${i}`);
    }
    assert.deepEqual(fingerprintDiff(fingerprint(copy), fingerprint(ws)), []);
  });
});

// Snapshot store cost on a generated folder of 20,000 files (five of 1 MB), each measured next to raw git
// doing the same work in the same run with a private index:
//   first snapshot          vs  git add -A && git write-tree   (fresh repository and index)
//   snapshot, 1-file edit   vs  git add -A && git write-tree
//   restore, 10-file edit   vs  git read-tree <tree> && git checkout-index -f -- <the 10 files>
// Run: npx tsx bench/snapshot.bench.ts [--files N] [--reps N]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { deflateSync } from 'node:zlib';
import { openSnapshotStore, type GitSnapshotStore } from '../src/snapshot/gitSnapshotStore';
import { writeBigRepo } from './bigRepo';

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const FILES = flag('--files', 20_000);
const REPS = flag('--reps', 15);
const WORK = path.join(__dirname, '.work');
const REPO = path.join(WORK, `repo-${FILES}`);
const STATE = path.join(WORK, 'state');
const RAW = path.join(WORK, 'raw.git');
const RAW_INDEX = path.join(WORK, 'raw.index');
const BIG = 5;

function generate(): void {
  writeBigRepo(REPO, FILES, BIG);
}

function rawGit(argv: string[], input = '', bare = false): Promise<string> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  Object.assign(env, { GIT_INDEX_FILE: RAW_INDEX, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' });
  return new Promise((resolve, reject) => {
    const prefix = bare ? [] : [`--git-dir=${RAW}`, `--work-tree=${REPO}`];
    const c = spawn('git', [...prefix, ...argv], { cwd: REPO, env });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${argv[0]}: ${err}`))));
    c.stdin.end(input);
  });
}

async function rawSnapshot(): Promise<string> {
  await rawGit(['add', '-A']);
  return (await rawGit(['write-tree'])).trim();
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function dirBytes(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return total;
}

function smallFiles(): string[] {
  const out: string[] = [];
  for (let a = 0; a < 20; a++) for (let c = 0; c < 100; c += 7) out.push(`pkg${a}/mod${a % 10}/file${c}.ts`);
  return out.filter((p) => fs.existsSync(path.join(REPO, p)));
}

async function main(): Promise<void> {
  fs.mkdirSync(WORK, { recursive: true });
  const tg = performance.now();
  generate();
  console.log(`repository: ${REPO} (${FILES} files, ${BIG} of 1 MB; ready in ${Math.round(performance.now() - tg)} ms)`);
  const rows: Array<[string, number, number]> = [];

  // First snapshot: fresh stores each time; order alternates so neither side always gets the warmer cache.
  const firstOurs: number[] = [];
  const firstRaw: number[] = [];
  let store: GitSnapshotStore | undefined;
  for (let r = 0; r < 3; r++) {
    fs.rmSync(STATE, { recursive: true, force: true });
    fs.rmSync(RAW, { recursive: true, force: true });
    fs.rmSync(RAW_INDEX, { force: true });
    const ours = async () => {
      firstOurs.push(await time(async () => {
        store = await openSnapshotStore({ workspace: REPO, stateDir: STATE, runId: 'bench' });
        await store.snapshot('first');
      }));
    };
    const raw = async () => {
      firstRaw.push(await time(async () => {
        await rawGit(['init', '--bare', '-q', RAW], '', true);
        await rawSnapshot();
      }));
    };
    if (r % 2 === 0) { await ours(); await raw(); } else { await raw(); await ours(); }
  }
  rows.push(['first snapshot', median(firstOurs), median(firstRaw)]);
  const s = store as GitSnapshotStore;
  const objects = path.join(s.storeDir, 'objects');

  // Snapshot after a one-file edit, plus the bytes it adds to the store.
  const files = smallFiles();
  const editOurs: number[] = [];
  const editRaw: number[] = [];
  const added: number[] = [];
  const compressed: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const f = path.join(REPO, files[r % files.length]);
    fs.appendFileSync(f, `// edit ${r} ${Date.now()}\n`);
    const content = fs.readFileSync(f);
    compressed.push(deflateSync(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content])).length);
    const before = dirBytes(objects);
    const ours = async () => editOurs.push(await time(() => s.snapshot(`edit ${r}`)));
    const raw = async () => editRaw.push(await time(rawSnapshot));
    if (r % 2 === 0) { await ours(); await raw(); } else { await raw(); await ours(); }
    added.push(dirBytes(objects) - before);
  }
  rows.push(['snapshot after a 1-file edit', median(editOurs), median(editRaw)]);

  // The same for one of the 1 MB files, to show the bytes added follow the file's compressed size.
  const bigFile = path.join(REPO, 'pkg0', 'big0.bin');
  fs.appendFileSync(bigFile, 'tail');
  const bigBefore = dirBytes(objects);
  const bigContent = fs.readFileSync(bigFile);
  const bigTime = await time(() => s.snapshot('big edit'));
  const bigAdded = dirBytes(objects) - bigBefore;
  const bigCompressed = deflateSync(Buffer.concat([Buffer.from(`blob ${bigContent.length}\0`), bigContent])).length;
  await rawSnapshot();

  // Restore after a ten-file edit.
  const base = await s.snapshot('restore base');
  const rawBase = await rawSnapshot();
  const restOurs: number[] = [];
  const restKnown: number[] = [];
  const restReset: number[] = [];
  const restAll: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const start = (r * 10) % (files.length - 10);
    const ten = files.slice(start, start + 10);
    const edit = () => { for (const p of ten) fs.appendFileSync(path.join(REPO, p), `// restore edit ${r}\n`); };
    edit();
    restOurs.push(await time(() => s.restore(base.id)));
    if ((await s.changedSince(base.id)).length !== 0) throw new Error('restore left differences');
    // Raw git, told which ten files changed: the lower bound, with no detection at all.
    edit();
    restKnown.push(await time(async () => {
      await rawGit(['read-tree', rawBase]);
      await rawGit(['checkout-index', '-f', '-z', '--stdin'], ten.map((p) => `${p}\0`).join(''));
    }));
    await rawGit(['update-index', '-q', '--refresh']); // untimed: give raw git back its stat cache
    // Raw git finding the changes itself (what `git reset --hard` does): stats every file.
    edit();
    restReset.push(await time(() => rawGit(['read-tree', '--reset', '-u', rawBase])));
    // Raw git rewriting the whole tree: read-tree + checkout-index of every file.
    if (r < 3) {
      edit();
      restAll.push(await time(async () => {
        await rawGit(['read-tree', rawBase]);
        await rawGit(['checkout-index', '-f', '-a']);
      }));
      await rawGit(['update-index', '-q', '--refresh']);
    }
  }
  rows.push(['restore, 10-file edit, vs raw read-tree + checkout-index -a', median(restOurs), median(restAll)]);
  rows.push(['  same, vs raw read-tree --reset -u', median(restOurs), median(restReset)]);
  rows.push(['  same, vs raw read-tree + checkout-index of the 10 known files', median(restOurs), median(restKnown)]);

  console.log(`\n${'operation'.padEnd(66)}${'greenloop ms'.padStart(14)}${'raw git ms'.padStart(12)}${'ratio'.padStart(8)}`);
  for (const [name, ours, raw] of rows) {
    console.log(`${name.padEnd(66)}${ours.toFixed(1).padStart(14)}${raw.toFixed(1).padStart(12)}${(ours / raw).toFixed(2).padStart(8)}`);
  }
  console.log(`\nbytes added per 1-file-edit snapshot (median of ${REPS}): ${median(added)} ` +
    `(the edited file compressed: ${median(compressed)}; the rest is the trees on its path and the commit)`);
  console.log(`bytes added for a 1 MB file edit: ${bigAdded} (file compressed: ${bigCompressed}; ${bigTime.toFixed(1)} ms)`);
  console.log(`store size: ${(dirBytes(s.storeDir) / 1e6).toFixed(1)} MB for ${(dirBytes(REPO) / 1e6).toFixed(1)} MB of files`);
  await s.deleteRun('bench');
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

// What the watch outside the snapshotted tree adds to each agent attempt (mark before it runs + check after), next to
// what the attempt already costs, measured in the same run on the same generated workspace: a real repository
// (5,000 tracked files, 300 tags), 20,000 ignored files under node_modules and 200 ignored local files of 10 KB:
//   mark + check                vs  one snapshot (the engine takes one per attempt)
//   mark + check                vs  the stat-only look of before (two fingerprints of the ignored files)
// Run: npm run bench:outside [-- --reps N]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSnapshotStore } from '../src/snapshot/gitSnapshotStore';
import { openOutsideWatch } from '../src/outside/outsideWatch';

const args = process.argv.slice(2);
const REPS = args.includes('--reps') ? Number(args[args.indexOf('--reps') + 1]) : 15;
const WORK = path.join(__dirname, '.work', 'outside');
const REPO = path.join(WORK, 'repo');

function generate(): void {
  if (fs.existsSync(path.join(REPO, '.git', 'complete'))) return;
  fs.rmSync(REPO, { recursive: true, force: true });
  for (let i = 0; i < 5_000; i++) {
    const dir = path.join(REPO, 'src', `m${i % 50}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  }
  for (let i = 0; i < 20_000; i++) {
    const dir = path.join(REPO, 'node_modules', `p${i % 400}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `i${i}.js`), `module.exports = ${i};\n`);
  }
  fs.mkdirSync(path.join(REPO, 'local'), { recursive: true });
  for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(REPO, 'local', `c${i}.env`), 'x'.repeat(10_240));
  fs.writeFileSync(path.join(REPO, '.gitignore'), 'node_modules/\nlocal/\n');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: REPO, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-qm', 'bench');
  for (let i = 0; i < 300; i++) git('tag', `v${i}`);
  fs.writeFileSync(path.join(REPO, '.git', 'complete'), '');
}

/** Medians of the measurements taken in turn, rep by rep, so load on the machine falls on all of them alike. */
async function medians(fns: Array<() => Promise<unknown>>): Promise<number[]> {
  const times: number[][] = fns.map(() => []);
  for (const fn of fns) await fn();
  for (let i = 0; i < REPS; i++) {
    for (const [k, fn] of fns.entries()) {
      const t = performance.now();
      await fn();
      times[k].push(performance.now() - t);
    }
  }
  return times.map((ts) => ts.sort((a, b) => a - b)[Math.floor(ts.length / 2)]);
}

async function main(): Promise<void> {
  generate();
  const stateDir = path.join(WORK, 'state');
  fs.rmSync(stateDir, { recursive: true, force: true });
  const store = await openSnapshotStore({ workspace: REPO, stateDir, runId: 'bench' });
  // As in a run: the baseline snapshot comes first (its index is what tells tracked files from the rest).
  await store.snapshot('baseline');
  const watch = await openOutsideWatch({ workspace: REPO, stateDir, home: os.homedir(), snapshots: store });
  const [outside, snapshot, before] = await medians([
    async () => {
      const changes = await (await watch.mark()).check();
      if (changes.length) throw new Error(`nothing changed, yet: ${changes.map((c) => c.where).join(', ')}`);
    },
    () => store.snapshot('bench'),
    async () => {
      await store.unrecordedFingerprint();
      await store.unrecordedFingerprint();
    },
  ]);
  const row = (name: string, ms: number, base: number, baseName: string) =>
    console.log(`${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms   ${(ms / base).toFixed(2)}× ${baseName} (${base.toFixed(0)} ms)`);
  console.log(`median of ${REPS}; 5,000 tracked files, 300 tags, 20,200 ignored files (200 copied, 2 MB)`);
  row('mark + check, per agent attempt', outside, snapshot, 'one snapshot');
  row('mark + check, per agent attempt', outside, before, 'the stat-only look of before');
}

void main();

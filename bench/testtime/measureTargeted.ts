// Measures what targeted runs save on the bench project: one whole-suite run of a state with failing tests, then the
// narrowed run of 1, 2 and 3 of its failing tests, each read by the real verifier. Prints seconds and the ratio.
// Usage: node -r tsx/cjs bench/testtime/measureTargeted.ts [--runs N]   (after bench/testtime/setup.sh)
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CommandVerifier } from '../../src/verify/commandVerifier';
import { narrowToTargets } from '../../src/runners/narrow';
import { targetedCoverage } from '../../src/core/judge/targetedCoverage';
import { BENCH_TEST_COMMAND, INJECTED_BUGS, applyEdits } from './scenarios';

async function main(): Promise<void> {
  const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 1;
  const pristine = execFileSync('bash', [path.join(__dirname, 'setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!;
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-testtime-'));
  try {
    execFileSync('cp', ['-a', `${pristine}/.`, ws]);
    applyEdits(ws, INJECTED_BUGS);
    const files = execFileSync('git', ['ls-files'], { cwd: ws, encoding: 'utf8' }).split('\n').filter(Boolean);
    const scripts = JSON.parse(fs.readFileSync(path.join(ws, 'package.json'), 'utf8')).scripts;
    const verifier = (testCommand: string, env?: NodeJS.ProcessEnv) => new CommandVerifier({ cwd: ws, testCommand, tsc: 'off', timeoutMs: 900_000, env });
    const full = await verifier(BENCH_TEST_COMMAND).verify();
    console.log(`whole suite: ${(full.durationMs / 1000).toFixed(1)} s, ${full.ranCount} tests, failing: ${full.failing.length} (${full.failing.join('; ')})`);
    for (const n of [1, 2, 3]) {
      const targets = full.failures.slice(0, n);
      const t = narrowToTargets({ testCommand: BENCH_TEST_COMMAND, runner: full.runner, targets, scripts, files });
      if (!t.ok) throw new Error(`cannot narrow: ${t.why}`);
      const PATH = [...t.pathDirs.map((d) => path.join(ws, d)), process.env.PATH].join(path.delimiter);
      const times: number[] = [];
      for (let r = 0; r < runs; r++) {
        const w = await verifier(t.command, { ...process.env, PATH }).verify();
        const c = targetedCoverage(targets.map((f) => f.id), w);
        if (!c.complete) throw new Error(`the targeted run missed its targets: ${c.why}`);
        times.push(w.durationMs);
      }
      const s = Math.min(...times) / 1000;
      console.log(`targeted, ${n} failing test(s) in ${t.files?.length ?? 'all'} file(s): ${s.toFixed(1)} s = ${(s / (full.durationMs / 1000)).toFixed(3)}× the whole suite\n  ${t.command}`);
    }
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

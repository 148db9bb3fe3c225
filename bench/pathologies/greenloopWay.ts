// Greenloop's way: `greenloop fix` with its defaults, as a person runs it, against the scenario's scripted model.
// runFix is the one place a bench starts the built CLI's `fix` (bench/testtime runs it on mathjs too).
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { Scenario } from './scenario';
import type { ScenarioRun } from './workspace';
import { addCounts, type LoopResult } from './loopResult';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');

export interface FixRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

/** `node dist/cli.js fix ARGS`; the wall time is the whole process, as a person waiting for it sees it. */
export async function runFix(args: string[], env: Record<string, string> = {}): Promise<FixRun> {
  const started = Date.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [CLI, 'fix', ...args], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
  return { code, stdout, stderr, wallMs: Date.now() - started };
}

/** `extraArgs` go after the defaults, e.g. `--verify-scope full` (bench:pathologies -- --verify-scope). */
export async function runGreenloop(scenario: Scenario, run: ScenarioRun, extraArgs: string[] = []): Promise<LoopResult> {
  const args = ['--cwd', run.cwd, '--actor', 'openai', '--base-url', run.server.url, '--model', 'scripted', '--state-dir', path.join(run.dir, 'state'), '--json'];
  if (scenario.testCmd) args.push('--test-cmd', scenario.testCmd);
  for (const check of scenario.checks ?? []) args.push('--check', check);
  if (scenario.verifyTimeoutS) args.push('--verify-timeout-s', String(scenario.verifyTimeoutS));
  args.push(...extraArgs);
  const { code, stdout, stderr, wallMs } = await runFix(args, run.env);
  let report: { outcome?: string; reason?: string | null; iterations?: Array<{ matchedBy?: Record<string, number> }> } = {};
  try {
    report = JSON.parse(stdout);
  } catch {
    throw new Error(`greenloop fix printed no report for ${scenario.name} (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  return {
    claimedGreen: code === 0 && report.outcome === 'green',
    ended: report.outcome === 'green' ? 'green' : `${report.outcome ?? 'error'}${report.reason ? `: ${report.reason}` : ''}`,
    reason: report.reason ?? null,
    wallMs,
    log: stderr,
    matchedBy: (report.iterations ?? []).reduce((sum, it) => addCounts(sum, it.matchedBy), {} as Record<string, number>),
  };
}

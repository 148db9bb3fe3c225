// Greenloop's way: `greenloop fix` with its defaults, as a person runs it, against the scenario's scripted model.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { Scenario } from './scenario';
import type { ScenarioRun } from './workspace';
import type { LoopResult } from './loopResult';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

export async function runGreenloop(scenario: Scenario, run: ScenarioRun): Promise<LoopResult> {
  const args = [CLI, 'fix', '--cwd', run.cwd, '--actor', 'openai', '--base-url', run.server.url, '--model', 'scripted', '--state-dir', path.join(run.dir, 'state'), '--json'];
  if (scenario.testCmd) args.push('--test-cmd', scenario.testCmd);
  for (const check of scenario.checks ?? []) args.push('--check', check);
  if (scenario.verifyTimeoutS) args.push('--verify-timeout-s', String(scenario.verifyTimeoutS));
  const started = Date.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, args, { env: { ...process.env, ...run.env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
  const wallMs = Date.now() - started;
  let report: { outcome?: string; reason?: string | null } = {};
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
  };
}

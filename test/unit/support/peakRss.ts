// Runs the bundled CLI like runCli, and reads back the peak memory of the CLI process itself (see reportPeakRss.js).
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ensureCliBuilt, tempDir } from './cli';
import type { CliResult } from './cli';

const PRELOAD = path.join(__dirname, 'reportPeakRss.js');

export interface MeasuredRun extends CliResult {
  /** Peak resident set of the greenloop process, in MB (MiB). */
  peakMb: number;
}

export function runCliMeasured(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<MeasuredRun> {
  const cli = ensureCliBuilt();
  const dir = tempDir('peak');
  const file = path.join(dir, 'peak-kb');
  const { npm_config_loglevel: _silenced, ...inherited } = process.env;
  const child = spawn(process.execPath, ['-r', PRELOAD, cli, ...args], { env: { ...inherited, ...opts.env, GREENLOOP_PEAK_RSS_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<MeasuredRun>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const kb = Number(fs.readFileSync(file, 'utf8'));
        resolve({ code, stdout, stderr, peakMb: Math.round(kb / 1024) });
      } catch {
        reject(new Error(`The CLI exited (code ${code}) without reporting its peak memory; stderr:\n${stderr.slice(-2000)}`));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

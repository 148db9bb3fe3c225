import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where scripts/e2e/setup.sh puts what the e2e suite runs on; keep the two in step. */
export const repoRoot = resolve(__dirname, '..', '..', '..');
export const cacheDir = process.env.GREENLOOP_E2E_CACHE ?? join(repoRoot, '.e2e-cache');
export const node24 = join(cacheDir, 'node24', 'bin', 'node');
export const codeServerEntry = join(cacheDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const chromiumPath = process.env.GREENLOOP_E2E_CHROMIUM ?? '/usr/bin/chromium';
export const resultsDir = join(repoRoot, 'test-results', 'e2e');

/** Fails early, in one sentence, when the one-time setup has not run, instead of a spawn error deep in a test. */
export function assertSetupDone(): void {
  const missing = [node24, codeServerEntry, chromiumPath].filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new Error(`The e2e tools are not installed (missing ${missing.join(', ')}); run \`bash scripts/e2e/setup.sh\` once, then rerun.`);
  }
}

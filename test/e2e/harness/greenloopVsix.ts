import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageExtension } from './vsix';
import { removeOnExit } from './processGroup';
import { repoRoot } from './paths';

let packaged: Promise<string> | undefined;

/**
 * The real Greenloop extension as a user installs it: `vsce package` at the repository root, whose
 * vscode:prepublish step builds dist/ with esbuild. Packaged once per mocha process and shared by every spec; `npm run test:e2e` packages it once before its workers start.
 * GREENLOOP_E2E_VSIX points at a ready .vsix instead (to test a release artifact, or while the build is broken).
 */
export function greenloopVsix(): Promise<string> {
  const given = process.env.GREENLOOP_E2E_VSIX;
  if (given) {
    if (!existsSync(given)) return Promise.reject(new Error(`GREENLOOP_E2E_VSIX is ${given}, which does not exist; unset it or build one with \`npm run package\`.`));
    return Promise.resolve(given);
  }
  if (!packaged) {
    const dir = mkdtempSync(join(tmpdir(), 'greenloop-vsix-'));
    removeOnExit(dir);
    packaged = packageExtension(repoRoot, join(dir, 'greenloop.vsix'));
    packaged.catch(() => (packaged = undefined));
  }
  return packaged;
}

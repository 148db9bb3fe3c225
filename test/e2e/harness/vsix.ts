import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ceiling } from './patience';
import { repoRoot } from './paths';

const execFileP = promisify(execFile);

/**
 * Packages the extension in `extensionDir` with @vscode/vsce into `outFile`, as a publisher would.
 * `--no-dependencies` because our bundles are self-contained (esbuild) and the test extensions have none.
 */
export async function packageExtension(extensionDir: string, outFile: string): Promise<string> {
  // scripts/vsce.sh installs the pinned vsce into a cache the first time, and says why in one line if it cannot.
  const vsce = join(repoRoot, 'scripts', 'vsce.sh');
  try {
    // Greenloop's own manifest has a repository and a LICENSE; the test-only extensions have neither.
    const fixtureOnly = extensionDir === repoRoot ? [] : ['--allow-missing-repository', '--skip-license'];
    await execFileP('bash', [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', ...fixtureOnly, '--out', outFile], {
      cwd: extensionDir,
      timeout: ceiling(300_000),
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`vsce could not package ${extensionDir}: ${(e.stderr || e.stdout || e.message).trim()}`);
  }
  if (!existsSync(outFile)) throw new Error(`vsce reported success but wrote no ${outFile}.`);
  return outFile;
}

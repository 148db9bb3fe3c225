// `npm run test:electron`: the Fix-until-green suite inside a real desktop VS Code, via @vscode/test-electron.
// runTests downloads VS Code into .vscode-test/ on first use, so this needs a machine that can reach
// update.code.visualstudio.com; where that is closed, `npm run test:e2e` (code-server) covers the same ground.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { runTests } from '@vscode/test-electron';

const repoRoot = resolve(__dirname, '..', '..');
const outDir = join(repoRoot, 'out', 'electron');

/** The extension host loads plain CommonJS, so each suite file is bundled (vscode and mocha stay external). */
export function bundleSuite(): string {
  const suiteDir = join(__dirname, 'suite');
  const entryPoints = readdirSync(suiteDir).filter((f) => f.endsWith('.ts')).map((f) => join(suiteDir, f));
  buildSync({ entryPoints, outdir: join(outDir, 'suite'), bundle: true, platform: 'node', format: 'cjs', target: 'node18', external: ['vscode', 'mocha'], sourcemap: 'inline', logLevel: 'error' });
  return join(outDir, 'suite', 'index.js');
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'greenloop-electron-'));
  const workspace = join(tmp, 'calc');
  cpSync(join(repoRoot, 'test', 'fixtures', 'projects', 'calc'), workspace, { recursive: true });
  try {
    const code = await runTests({
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: bundleSuite(),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(tmp, 'user-data')],
      extensionTestsEnv: { GREENLOOP_ELECTRON_WORKSPACE: workspace },
    });
    process.exitCode = code;
  } catch (err) {
    console.error(`The VS Code test run did not complete: ${(err as Error).message} (it needs to download VS Code once; without network use \`npm run test:e2e\`).`);
    process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) void main();

// What the extension weighs: the bundles VS Code loads at activation and on first use, the CLI, and the packaged
// vsix, each next to issue 14's target. Builds for production first. Run: npm run bench:bundle
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = path.join(__dirname, '..');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const size = (rel: string) => fs.statSync(path.join(ROOT, rel)).size;
const gz = (rel: string) => gzipSync(fs.readFileSync(path.join(ROOT, rel))).length;

function main(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-vsix-'));
  const vsix = path.join(dir, 'greenloop.vsix');
  try {
    execFileSync('bash', ['scripts/vsce.sh', 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', vsix], { cwd: ROOT, stdio: 'ignore' });
    const activation = size('dist/extension.js') + size('dist/base.js');
    const rows: Array<[string, number, string]> = [
      ['dist/extension.js + dist/base.js: what VS Code loads at activation', activation, activation < 300 * 1024 ? 'under 300 KB: met' : 'under 300 KB: MISSED'],
      ['dist/runtime.js: engine, verifier, parsers, snapshots, actors — loaded on the first run', size('dist/runtime.js'), 'shared with the CLI'],
      ['dist/cli.js: the CLI (requires base.js, and runtime.js for a command that runs the loop)', size('dist/cli.js'), ''],
      ['dist/mcp.js: the MCP server, loaded by `greenloop mcp` only', size('dist/mcp.js'), ''],
      ['dist/webview.js: the escalation panel', size('dist/webview.js'), ''],
      ['greenloop.vsix', fs.statSync(vsix).size, fs.statSync(vsix).size < 500 * 1024 ? 'under 500 KB: met' : 'under 500 KB: MISSED'],
    ];
    console.log('| what | minified | gzip | target |');
    console.log('|---|---|---|---|');
    for (const [what, bytes, target] of rows) {
      const file = what.split(':')[0]!.split(' + ')[0]!;
      const zipped = file.endsWith('.vsix') ? '—' : what.startsWith('dist/extension.js + ') ? kb(gz('dist/extension.js') + gz('dist/base.js')) : kb(gz(file));
      console.log(`| ${what} | ${kb(bytes)} | ${zipped} | ${target} |`);
    }
    if (rows.some(([, , t]) => t.endsWith('MISSED'))) process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();

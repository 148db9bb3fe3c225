// Builds three bundles: the extension host (vscode external), the CLI, and the webview (browser).
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the format VS Code's $esbuild-watch problem matcher understands. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  plugins: [problemMatcher],
};

// ESM-only dependencies read import.meta.url; in a CommonJS bundle it must come from __filename.
const nodeShim = {
  define: { 'import.meta.url': '__greenloopImportMetaUrl' },
  banner: { js: "const __greenloopImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

const entries = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', format: 'cjs', platform: 'node', target: 'node18', external: ['vscode'], ...nodeShim },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', format: 'cjs', platform: 'node', target: 'node18', ...nodeShim, banner: { js: `#!/usr/bin/env node\n${nodeShim.banner.js}` } },
  // The scripted demo/test model server (not shipped in the vsix; see .vscodeignore).
  { ...common, entryPoints: ['scripts/scriptedModelServer.ts'], outfile: 'dist/scriptedModelServer.js', format: 'cjs', platform: 'node', target: 'node18', ...nodeShim },
  { ...common, entryPoints: ['src/webview/panel.ts'], outfile: 'dist/webview.js', format: 'iife', platform: 'browser', target: 'es2022' },
];

async function main() {
  const present = entries.filter((e) => fs.existsSync(path.join(__dirname, e.entryPoints[0])));
  const contexts = await Promise.all(present.map((e) => esbuild.context(e)));
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

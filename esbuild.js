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
// GREENLOOP_VERSION: package.json's version, for `greenloop --version` and the MCP server's name (src/base/version.ts).
const nodeShim = {
  define: { 'import.meta.url': '__greenloopImportMetaUrl', GREENLOOP_VERSION: JSON.stringify(require('./package.json').version) },
  banner: { js: "const __greenloopImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

// The layers (every folder of src/ but the entry points' own: core, verify, snapshot, actors, shared, …) ship once,
// in two shared chunks every Node bundle requires:
//   dist/base.js     what the extension's shell needs at activation (settings, history, plain words, …);
//   dist/runtime.js  the rest: engine, verifier and parsers, snapshots, actors — loaded by the extension on first use
//                    (src/extension/loadRuntime.ts) and by the CLI at start.
// One copy of each module matters beyond size: an ActorError thrown by the shell's model actor must be the class the
// engine's retry checks with instanceof. The chunks export each module under its path (e.g. "ports/actor"); an import
// of a module another chunk owns becomes `require("./base.js")["ports/actor"]`.
const SRC = path.join(__dirname, 'src');
// Every folder of src/ but the entry points' own ships once, in the shared chunks; an entry folder's modules stay in its bundle.
const ENTRY_FOLDERS = ['extension', 'cli', 'mcp', 'hook', 'flags', 'action', 'webview'];
const LAYER = new RegExp(`^(?!(?:${ENTRY_FOLDERS.join('|')})/)[^/]+/`);
const keyOf = (abs) => path.relative(SRC, abs).split(path.sep).join('/').replace(/\.ts$/, '');

function resolveSource(dir, spec) {
  const base = path.resolve(dir, spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f)) ?? null;
}

/** Imports of modules in `owners` (key → chunk file) load them from that chunk instead of bundling a copy. */
function fromChunks(owners) {
  return {
    name: 'from-chunks',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.namespace !== 'file') return undefined;
        const abs = resolveSource(args.resolveDir, args.path);
        const owner = abs && owners.get(keyOf(abs));
        return owner ? { path: keyOf(abs), namespace: 'chunk', pluginData: owner } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'chunk' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.pluginData)})[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/**
 * A chunk's entry: each module under its key, evaluated on first use. A caller loads what it reaches and no more:
 * the Claude Code Stop hook, started once per stop, runs none of the gateway's or the actors' module code.
 */
function chunkEntry(keys) {
  const lazy = (k) => `Object.defineProperty(exports, ${JSON.stringify(k)}, { enumerable: true, get: () => require(${JSON.stringify(`./src/${k}.ts`)}) });`;
  return { contents: keys.map(lazy).join('\n'), resolveDir: __dirname, loader: 'js', sourcefile: 'chunk.js' };
}

/**
 * zod (the MCP SDK's schema library) exports all of its ~50 locales as `z.locales`, 260 KB minified that the SDK's
 * `import * as z` keeps alive. Nothing here picks a locale and English is zod's default, so only English is bundled.
 */
const englishOnlyZod = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

const nodeBundle = { ...common, metafile: true, plugins: [...common.plugins, englishOnlyZod], format: 'cjs', platform: 'node', target: 'node18', ...nodeShim };

/** Which layer modules each Node entry reaches: read from a throw-away build's metafile. */
async function reached(entry, plugins = []) {
  const r = await esbuild.build({ ...nodeBundle, plugins, entryPoints: [entry], write: false, outfile: 'reach.js', metafile: true, minify: false, external: ['vscode'] });
  return Object.keys(r.metafile.inputs).filter((f) => f.startsWith('src/')).map((f) => f.slice(4).replace(/\.ts$/, ''));
}

async function nodeEntries() {
  // The shell's require('./runtime') stays out of the first measure: what it reaches belongs to the runtime chunk.
  const runtimeAside = { name: 'runtime-aside', setup: (b) => b.onResolve({ filter: /^\.\/runtime$/ }, () => ({ path: './runtime.js', external: true })) };
  // A runner's code (its parsers, narrowing, coverage) is required lazily by its room (src/runners/runner.ts): the shell
  // reads the rooms' facts for the settings' defaults, so its measure stops at those requires and the code ships in
  // dist/runtime.js, which dist/base.js requires on the first call.
  const runnersCodeAside = {
    name: 'runners-code-aside',
    setup: (b) => b.onResolve({ filter: /^\.\.?\// }, (args) => (args.kind === 'require-call' && args.importer.startsWith(path.join(SRC, 'runners') + path.sep) ? { path: args.path, external: true } : undefined)),
  };
  const base = (await reached('src/extension/extension.ts', [runtimeAside, runnersCodeAside])).filter((k) => LAYER.test(k));
  const heavy = [...new Set([...(await reached('src/extension/runtime.ts')), ...(await reached('src/cli/main.ts'))])]
    .filter((k) => (LAYER.test(k) || k === 'extension/runtime') && !base.includes(k));
  const owners = new Map([...base.map((k) => [k, './base.js']), ...heavy.map((k) => [k, './runtime.js'])]);
  const onlyBase = new Map(base.map((k) => [k, './base.js']));
  const onlyRuntime = new Map(heavy.map((k) => [k, './runtime.js']));
  const external = ['vscode', './base.js', './runtime.js', './mcp.js'];
  // The MCP server (its SDK, zod and ajv: ~450 KB) is its own file: the CLI loads it only for `greenloop mcp`, so a
  // Claude Code Stop hook or `--help` does not compile it on every start.
  const mcpApart = { name: 'mcp-apart', setup: (b) => b.onResolve({ filter: /^\.\.\/mcp\/mcpCommand$/ }, () => ({ path: './mcp.js', external: true })) };
  return [
    { ...nodeBundle, plugins: [...nodeBundle.plugins, fromChunks(onlyRuntime)], stdin: chunkEntry(base), outfile: 'dist/base.js', external },
    { ...nodeBundle, plugins: [...nodeBundle.plugins, fromChunks(onlyBase)], stdin: chunkEntry(heavy), outfile: 'dist/runtime.js', external },
    { ...nodeBundle, plugins: [...nodeBundle.plugins, fromChunks(owners)], entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external },
    { ...nodeBundle, plugins: [...nodeBundle.plugins, mcpApart, fromChunks(owners)], entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', external, supported: { 'dynamic-import': false }, banner: { js: `#!/usr/bin/env node\n${nodeShim.banner.js}` } },
    { ...nodeBundle, plugins: [...nodeBundle.plugins, fromChunks(owners)], entryPoints: ['src/mcp/mcpCommand.ts'], outfile: 'dist/mcp.js', external },
    // The GitHub Action (action.yml) and the writers of `fix --format github`: @actions/core and @octokit/core ship here only.
    { ...nodeBundle, plugins: [...nodeBundle.plugins, fromChunks(owners)], entryPoints: ['src/action/main.ts'], outfile: 'dist/action.js', external },
  ];
}

const standalone = [
  // The scripted demo/test model server (not shipped in the vsix; see .vscodeignore).
  { ...nodeBundle, entryPoints: ['scripts/scriptedModelServer.ts'], outfile: 'dist/scriptedModelServer.js' },
  { ...common, entryPoints: ['src/webview/panel.ts'], outfile: 'dist/webview.js', format: 'iife', platform: 'browser', target: 'es2022' },
];

/**
 * Tree-sitter's runtime and the grammars the prompt's code context cuts files with (src/context/parse/grammars.ts
 * reads them from dist/tree-sitter/ beside the bundles): JavaScript, TypeScript, TSX, Python, Go, Rust, Java, C++ (and C), C#, Ruby and PHP.
 */
const TREE_SITTER_WASM = ['tree-sitter', 'tree-sitter-javascript', 'tree-sitter-typescript', 'tree-sitter-tsx', 'tree-sitter-python', 'tree-sitter-go', 'tree-sitter-rust', 'tree-sitter-java', 'tree-sitter-cpp', 'tree-sitter-c-sharp', 'tree-sitter-ruby', 'tree-sitter-php'];
function copyTreeSitter() {
  const from = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  const to = path.join(__dirname, 'dist', 'tree-sitter');
  fs.mkdirSync(to, { recursive: true });
  for (const name of TREE_SITTER_WASM) fs.copyFileSync(path.join(from, `${name}.wasm`), path.join(to, `${name}.wasm`));
}

async function main() {
  copyTreeSitter();
  const entries = [...(await nodeEntries()), ...standalone];
  const present = entries.filter((e) => e.stdin || fs.existsSync(path.join(__dirname, e.entryPoints[0])));
  const contexts = await Promise.all(present.map((e) => esbuild.context(e)));
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  const results = await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
  const twice = bundledTwice(results.map((r) => r.metafile).filter(Boolean));
  if (twice.length) throw new Error(`These modules were bundled into more than one of dist/base.js, runtime.js, extension.js, cli.js and mcp.js, so their classes would differ between them: ${twice.join(', ')}.`);
}

/** Modules of src/ whose code sits in more than one Node bundle (the scripted model server stands alone). */
function bundledTwice(metafiles) {
  const seen = new Map();
  for (const meta of metafiles) {
    for (const [out, { inputs }] of Object.entries(meta.outputs)) {
      if (!/dist\/(base|runtime|extension|cli|mcp)\.js$/.test(out)) continue;
      for (const input of Object.keys(inputs)) {
        if (!input.startsWith('src/')) continue;
        // dist/mcp.js, loaded by the CLI only for `greenloop mcp`, keeps its own copy of the command line's helpers
        // (flags, usage errors): main.ts recognises its UsageError by name. Every module of a shared layer is checked.
        if (/dist\/mcp\.js$/.test(out) && !LAYER.test(input.slice('src/'.length))) continue;
        seen.set(input, [...(seen.get(input) ?? []), out]);
      }
    }
  }
  return [...seen].filter(([, outs]) => outs.length > 1).map(([input, outs]) => `${input} (${outs.join(', ')})`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

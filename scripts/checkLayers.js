#!/usr/bin/env node
// The layering rule (extension → cli → snapshot/actors → core → verify/webview → shared): a layer never imports
// `vscode` unless it is the extension, and never imports a layer above it. Exit 1 with one line per offence.
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const VSCODE = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;
const IMPORT = /(?:from\s+|require\(\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
// What each layer may not import (by folder under src/).
const FORBIDDEN = {
  shared: ['core', 'verify', 'snapshot', 'actors', 'cli', 'extension', 'webview'],
  webview: ['core', 'verify', 'snapshot', 'actors', 'cli', 'extension'],
  verify: ['snapshot', 'actors', 'cli', 'extension', 'webview'],
  core: ['snapshot', 'actors', 'cli', 'extension', 'webview'],
  snapshot: ['actors', 'cli', 'extension', 'webview'],
  actors: ['snapshot', 'cli', 'extension', 'webview'],
  cli: ['extension', 'webview'],
  action: ['extension', 'webview'],
  extension: [],
};

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.[cm]?[jt]sx?$/.test(e.name) ? [p] : [];
  });
}

/** Offences under `srcRoot` (a folder laid out like src/), as "file: reason" lines. */
function checkLayers(srcRoot = path.join(ROOT, 'src')) {
  const out = [];
  for (const [layer, forbidden] of Object.entries(FORBIDDEN)) {
    for (const file of sourceFiles(path.join(srcRoot, layer))) {
      const text = fs.readFileSync(file, 'utf8');
      const rel = path.relative(ROOT, file);
      if (layer !== 'extension' && VSCODE.test(text)) out.push(`${rel}: imports vscode, but ${layer}/ must run in plain Node`);
      for (const m of text.matchAll(IMPORT)) {
        const target = path.relative(srcRoot, path.resolve(path.dirname(file), m[1])).split(path.sep)[0];
        if (forbidden.includes(target)) out.push(`${rel}: imports ${m[1]}, but ${layer}/ may not depend on ${target}/`);
      }
    }
  }
  return out;
}

module.exports = { checkLayers };

if (require.main === module) {
  const offences = checkLayers(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  for (const o of offences) process.stderr.write(`${o}\n`);
  if (offences.length === 0) process.stdout.write('Layers are clean.\n');
  process.exitCode = offences.length ? 1 : 0;
}

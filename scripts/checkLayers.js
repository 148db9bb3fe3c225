#!/usr/bin/env node
// The layering rule: extension / cli / mcp / hook / action → session → core → ports ← verify / snapshot / actors / store / context /
// outside, and every layer may use base/ and shared/. Only extension/ imports `vscode`; a folder not named below is an
// offence until it is given a place. Exit 1 with one line per offence. `--strict` ignores the allowances still open.
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const VSCODE = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;
const IMPORT = /(?:from\s+|require\(\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

const GROUND = ['ports', 'base', 'shared'];
const ADAPTERS = ['verify', 'snapshot', 'actors', 'store', 'outside', 'context'];
const BELOW_HOSTS = ['session', 'core', ...ADAPTERS, ...GROUND];
/** What each folder under src/ may import (besides itself). */
const ALLOWED = {
  shared: [],
  base: ['shared'],
  ports: ['base', 'shared'],
  core: GROUND,
  ...Object.fromEntries(ADAPTERS.map((a) => [a, GROUND])),
  session: ['core', ...ADAPTERS, ...GROUND],
  flags: BELOW_HOSTS,
  mcp: ['flags', ...BELOW_HOSTS],
  hook: ['flags', ...BELOW_HOSTS],
  // The GitHub Action: a host like the MCP server; `fix --format github` reaches its writers through dist/action.js.
  action: ['flags', ...BELOW_HOSTS],
  cli: ['flags', 'mcp', 'hook', 'action', ...BELOW_HOSTS],
  extension: BELOW_HOSTS,
  webview: ['shared'],
};
/**
 * Crossings issue 23 has not removed yet: [from, to] folder pairs, or [from, to, file] for one file of `from` (its
 * path under src/). Each commit deletes the pairs it closes.
 */
const OPEN_ALLOWANCES = [
  ['actors', 'verify', 'actors/gateway/agentTestRun.ts'],
];

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.[cm]?[jt]sx?$/.test(e.name) ? [p] : [];
  });
}

/** Offences under `srcRoot` (a folder laid out like src/), as "file: reason" lines. */
function checkLayers(srcRoot = path.join(ROOT, 'src'), { strict = false } = {}) {
  const out = [];
  const open = strict ? [] : OPEN_ALLOWANCES;
  for (const file of sourceFiles(srcRoot)) {
    const rel = path.relative(ROOT, file);
    const inSrc = path.relative(srcRoot, file).split(path.sep).join('/');
    const layer = inSrc.split('/')[0];
    if (!(layer in ALLOWED)) {
      out.push(`${rel}: src/${layer} is no layer; give it a place in scripts/checkLayers.js first`);
      continue;
    }
    const text = fs.readFileSync(file, 'utf8');
    if (layer !== 'extension' && VSCODE.test(text)) out.push(`${rel}: imports vscode, but ${layer}/ must run in plain Node`);
    for (const m of text.matchAll(IMPORT)) {
      const target = path.relative(srcRoot, path.resolve(path.dirname(file), m[1])).split(path.sep)[0];
      if (target === layer || target.startsWith('..') || !(target in ALLOWED) && !fs.existsSync(path.join(srcRoot, target))) continue;
      if (ALLOWED[layer].includes(target) || open.some(([a, b, only]) => a === layer && b === target && (!only || only === inSrc))) continue;
      out.push(`${rel}: imports ${m[1]}, but ${layer}/ may not depend on ${target}/`);
    }
  }
  return out;
}

module.exports = { checkLayers, ALLOWED, OPEN_ALLOWANCES };

if (require.main === module) {
  const args = process.argv.slice(2);
  const strict = args.includes('--strict');
  const dir = args.find((a) => !a.startsWith('--'));
  const offences = checkLayers(dir ? path.resolve(dir) : undefined, { strict });
  for (const o of offences) process.stderr.write(`${o}\n`);
  if (offences.length === 0) process.stdout.write('Layers are clean.\n');
  process.exitCode = offences.length ? 1 : 0;
}

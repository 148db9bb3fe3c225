#!/usr/bin/env node
// The layering rule: extension / cli / mcp / hook / action → session → core → ports ← verify / snapshot / actors / store / context /
// outside, and every layer may use base/ and shared/. runners/ (each test runner's room, docs/development.md) sits just
// above the ground: every layer above it may read it, and it reads only the ground. Only extension/ imports `vscode`; a
// folder not named below is an offence until it is given a place. Inside runners/ a room imports no other room, and
// from outside only its top-level files are imported (the registry, the interface, reading, narrowing), never a room.
// Exit 1 with one line per offence. `--strict` ignores the allowances still open.
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const VSCODE = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;
const IMPORT = /(?:from\s+|require\(\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

const GROUND = ['ports', 'base', 'shared'];
// What each test runner is (its files, its words, its rules) is read by the core and the adapters alike; its code loads on first use.
const RUNNERS = ['runners', ...GROUND];
const ADAPTERS = ['verify', 'snapshot', 'actors', 'store', 'outside', 'context'];
const BELOW_HOSTS = ['session', 'core', ...ADAPTERS, ...RUNNERS];
/** What each folder under src/ may import (besides itself). */
const ALLOWED = {
  shared: [],
  base: ['shared'],
  ports: ['base', 'shared'],
  runners: GROUND,
  core: RUNNERS,
  ...Object.fromEntries(ADAPTERS.map((a) => [a, RUNNERS])),
  session: ['core', ...ADAPTERS, ...RUNNERS],
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
const OPEN_ALLOWANCES = [];

/** Folders of src/runners that are no runner's room: what several rooms share, and the readers no runner owns. */
const RUNNERS_SHARED = ['common', 'readers'];
/** Top-level files of src/runners a room (or common/, readers/) may import: the interface and the parsers' vocabulary. */
const RUNNERS_VOCABULARY = ['runner.ts', 'types.ts'];

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
      const targetPath = path.relative(srcRoot, path.resolve(path.dirname(file), m[1])).split(path.sep);
      const target = targetPath[0];
      const room = roomOffence(inSrc.split('/'), targetPath);
      if (room) out.push(`${rel}: imports ${m[1]}, but ${room}`);
      if (target === layer || target.startsWith('..') || !(target in ALLOWED) && !fs.existsSync(path.join(srcRoot, target))) continue;
      if (ALLOWED[layer].includes(target) || open.some(([a, b, only]) => a === layer && b === target && (!only || only === inSrc))) continue;
      out.push(`${rel}: imports ${m[1]}, but ${layer}/ may not depend on ${target}/`);
    }
  }
  return out;
}

/**
 * Why an import from `from` to `to` (paths under src/, as parts) breaks the rooms of src/runners, or null. A room
 * (runners/<name>/) imports its own folder, common/, readers/ and the vocabulary; common/ and readers/ never a room;
 * a file outside runners/ only a top-level file of it.
 */
function roomOffence(from, to) {
  if (to[0] !== 'runners' || to.length < 2) return null;
  const fromRunners = from[0] === 'runners';
  if (!fromRunners) return to.length > 2 ? `outside src/runners only its top-level files are imported (registry.ts, runner.ts, …), never runners/${to[1]}/` : null;
  // A top-level file of runners/ (the registry, reading, narrowing) may import any of its rooms.
  if (from.length === 2) return null;
  const toFolder = to.length > 2 ? to[1] : null;
  const toTop = to.length === 2 ? `${to[1]}${to[1].endsWith('.ts') ? '' : '.ts'}` : null;
  if (toTop !== null) return RUNNERS_VOCABULARY.includes(toTop) ? null : `a room and runners/${from[1]}/ import only ${RUNNERS_VOCABULARY.join(' and ')} of runners/' top-level files`;
  if (toFolder === from[1] || RUNNERS_SHARED.includes(toFolder)) return null;
  return RUNNERS_SHARED.includes(from[1])
    ? `runners/${from[1]}/ is shared by the rooms and imports none of them (runners/${toFolder}/)`
    : `a runner's room imports no other room (runners/${toFolder}/); what two rooms share goes to runners/common/`;
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

// The mutants of a project: drawn with a seed over the functions its suite covers, tried one after another in one
// work copy, kept when a test fails, and cached per project (bench:context measures them; bench:candidates fixes some).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Project } from './projects';
import { startWorkspace, applyMutant, revertMutant, CACHE } from './workspace';
import { coveredLines, isCovered, run } from './coverage';
import { draw, functionsOf, grammarOf, projectSeed, sitesOf, type Fn, type Mutant, type Site } from './mutate';

export const SEED = 40;
export const DEFAULT_LIMIT = 13;
export const RESULTS = path.join(__dirname, '.results');

/** What one CLI's first prompt showed: the mutated line or not, the code context's tokens, the coverage note. */
export interface Shown { found: boolean; tokens: number; failing: number; outcome: string; coverage: string | null }

export interface Tried { mutant: Mutant; killed: boolean; seconds: number }

export interface ProjectResult {
  project: string; language: string; commit: string; seed: number; limit: number;
  sourceLines: number; functions: number; coveredFunctions: number; sites: number;
  coverage: { note: string; seconds: number; plainSeconds: number };
  tried: Tried[];
  /** Per kept mutant id, per CLI label ("today", "after"). */
  shown: Record<string, Record<string, Shown>>;
  cli: Record<string, string>;
}

function walk(root: string, rel: string, out: string[]): void {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return;
  if (fs.statSync(abs).isFile()) {
    out.push(rel);
    return;
  }
  for (const e of fs.readdirSync(abs).sort()) if (!e.startsWith('.') && e !== 'node_modules') walk(root, rel === '.' ? e : `${rel}/${e}`, out);
}

/** The project's non-test source files the generator can parse. */
export function sourceFiles(p: Project, root: string): string[] {
  const out: string[] = [];
  for (const s of p.sources) walk(root, s, out);
  return out.filter((f) => grammarOf(f) && !p.tests.test(f) && !f.endsWith('.d.ts'));
}

export const keptOf = (r: ProjectResult) => r.tried.filter((t) => t.killed).length;
const drawn = (r: ProjectResult) => keptOf(r) >= r.limit || r.tried.length >= 4 * r.limit;

/** Draws and keeps the project's mutants, each tried in one work copy and saved in `r` as it is tried. */
export async function drawMutants(p: Project, r: ProjectResult, save: () => void): Promise<void> {
  if (drawn(r)) return;
  const ws = startWorkspace(p, null);
  try {
    const cov = await coveredLines(p, ws.cwd, path.join(CACHE, 'coverage', p.name));
    const texts = new Map<string, string[]>();
    const fns: Fn[] = [];
    const sites: Site[] = [];
    for (const f of sourceFiles(p, ws.cwd)) {
      const text = fs.readFileSync(path.join(ws.cwd, f), 'utf8');
      texts.set(f, text.split('\n'));
      fns.push(...(await functionsOf(f, text, grammarOf(f)!)));
      sites.push(...(await sitesOf(f, text, grammarOf(f)!)));
    }
    const covered = fns.filter((f) => isCovered(f, cov.lines));
    Object.assign(r, {
      sourceLines: [...texts.values()].reduce((n, ls) => n + ls.filter((l) => l.trim()).length, 0), functions: fns.length, coveredFunctions: covered.length, sites: sites.length,
      coverage: { note: cov.note, seconds: cov.seconds, plainSeconds: cov.plainSeconds },
    });
    save();
    console.error(`${p.name}: ${texts.size} source files, ${r.sourceLines} lines, ${covered.length} of ${fns.length} functions covered (${cov.note}; covered run ${cov.seconds.toFixed(1)} s, plain ${cov.plainSeconds.toFixed(1)} s)`);
    const timeout = Math.ceil(Math.max(120, 6 * cov.plainSeconds) * 1000);
    const gen = draw(covered, sites, texts, projectSeed(r.seed, p.name));
    // The draws already tried (a resumed run) are drawn again and skipped: the order depends on the seed alone.
    for (let i = 0; i < r.tried.length; i++) gen.next();
    for (const m of gen) {
      if (drawn(r)) break;
      applyMutant(ws.cwd, m);
      const t = await run(p.testCmd, ws.cwd, {}, timeout);
      revertMutant(ws.cwd, m);
      r.tried.push({ mutant: m, killed: t.code !== 0, seconds: t.seconds });
      save();
      console.error(`  ${m.id} ${m.file}:${m.line} ${m.operator} in ${m.fn}: ${t.code !== 0 ? 'kept (a test fails)' : 'dropped (no test fails)'} ${t.seconds.toFixed(1)} s`);
    }
  } finally {
    ws.dispose();
  }
}


/** A project's cached result for this seed and commit, or a fresh one. */
export function loadResult(p: Project, file: string, seed: number, limit: number, fresh = false): ProjectResult {
  let r: ProjectResult | null = fs.existsSync(file) && !fresh ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
  if (r && (r.seed !== seed || r.commit !== p.commit)) r = null;
  r ??= { project: p.name, language: p.language, commit: p.commit, seed, limit, sourceLines: 0, functions: 0, coveredFunctions: 0, sites: 0, coverage: { note: '', seconds: 0, plainSeconds: 0 }, tried: [], shown: {}, cli: {} };
  r.limit = limit;
  return r;
}

/** The project's first `limit` kept mutants for the seed, drawn (and cached beside bench:context's) when missing. */
export async function keptMutants(p: Project, seed = SEED, limit = DEFAULT_LIMIT, results = RESULTS): Promise<Mutant[]> {
  fs.mkdirSync(results, { recursive: true });
  const file = path.join(results, `${p.name}.json`);
  const r = loadResult(p, file, seed, limit);
  if (keptOf(r) < limit) await drawMutants(p, r, () => fs.writeFileSync(file, JSON.stringify(r, null, 1)));
  return r.tried.filter((t) => t.killed).slice(0, limit).map((t) => t.mutant);
}

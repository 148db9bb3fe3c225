// The cases of bench:candidates: the pathology benchmark's calc repository with one to three functions wrong, and
// the context benchmark's seeded mutants (bench/context/draw.ts, seed 40) in two real projects whose runners need no
// network once cached — range-parser (mocha) and tomli (pytest) — the first five each kept, in the draw's order.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calcRepo, CALC, WRONG, RIGHT } from '../pathologies/calcRepo';
import { keptMutants } from '../context/draw';
import type { Mutant } from '../context/mutate';
import { PROJECTS, type Project } from '../context/projects';
import { startWorkspace } from '../context/workspace';
import type { Case } from './model';

export interface Prepared {
  c: Case;
  cwd: string;
  testCmd: string;
  dispose(): void;
}

const CALC_CASES: string[][] = [['add'], ['add', 'mul'], ['div', 'pow'], ['sub', 'mul', 'mod']];
const CONTEXT_PROJECTS = ['range-parser', 'tomli'];
const PER_PROJECT = 5;

interface ContextCase { id: string; project: Project; mutant: Mutant }

/** The context cases, drawn once per process (the draw is cached on disk beside bench:context's results). */
let contextCases: Promise<ContextCase[]> | null = null;
function contextCasesOnce(): Promise<ContextCase[]> {
  contextCases ??= (async () => {
    const out: ContextCase[] = [];
    for (const name of CONTEXT_PROJECTS) {
      const project = PROJECTS.find((p) => p.name === name)!;
      for (const mutant of await keptMutants(project, undefined, PER_PROJECT)) out.push({ id: `${name}-${mutant.id}`, project, mutant });
    }
    return out;
  })();
  return contextCases;
}

export async function caseIds(): Promise<string[]> {
  return [...CALC_CASES.map((w) => `calc-${w.join('+')}`), ...(await contextCasesOnce()).map((c) => c.id)];
}

/**
 * The mutated line as a SEARCH the model can land: with as many lines above it as make it unique in the file, and
 * the same lines with the original put back as the REPLACE.
 */
function wrongLine(lines: readonly string[], m: Mutant): { wrong: string; right: string } {
  const i = m.line - 1;
  for (let from = i; from >= 0; from--) {
    const wrong = lines.slice(from, i + 1).join('\n');
    if (lines.join('\n').split(wrong).length === 2) return { wrong, right: [...lines.slice(from, i), m.before].join('\n') };
  }
  return { wrong: lines.slice(0, i + 1).join('\n'), right: [...lines.slice(0, i), m.before].join('\n') };
}

export async function prepare(id: string): Promise<Prepared> {
  if (id.startsWith('calc-')) return calcCase(id, id.slice(5).split('+'));
  const { project, mutant } = (await contextCasesOnce()).find((c) => c.id === id)!;
  const ws = startWorkspace(project, mutant);
  const lines = fs.readFileSync(path.join(ws.cwd, mutant.file), 'utf8').split('\n');
  const python = project.language === 'Python';
  return {
    c: { id, source: 'context', lines: [{ file: mutant.file, ...wrongLine(lines, mutant) }], testDir: python ? 'tests' : 'test', comment: python ? '#' : '//', testExt: python ? '.py' : '.js' },
    cwd: ws.cwd, testCmd: project.testCmd, dispose: ws.dispose,
  };
}

function calcCase(id: string, wrong: string[]): Prepared {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-cand-calc-'));
  for (const [rel, text] of Object.entries(calcRepo(wrong))) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...a], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'calc');
  const lines = wrong.map((name) => ({ file: CALC, wrong: `function ${name}(a, b) {\n  return ${WRONG[name]};`, right: `function ${name}(a, b) {\n  return ${RIGHT[name]};` }));
  return { c: { id, source: 'pathologies', lines, testDir: 'test', comment: '//', testExt: '.js' }, cwd: dir, testCmd: 'node --test', dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

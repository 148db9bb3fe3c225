// The cases of bench:candidates: the pathology benchmark's calc repository with one to three functions wrong, and
// single-line bugs of the context benchmark's real projects (bench/context/bugs.ts), taken in its order, not chosen.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calcRepo, CALC, WRONG, RIGHT } from '../pathologies/calcRepo';
import { BUGS } from '../context/bugs';
import { PROJECTS } from '../context/projects';
import { startWorkspace } from '../context/workspace';
import type { Case } from './model';

export interface Prepared {
  c: Case;
  cwd: string;
  testCmd: string;
  dispose(): void;
}

const CALC_CASES: string[][] = [['add'], ['add', 'mul'], ['div', 'pow'], ['sub', 'mul', 'mod']];
/** The context bench's first bugs of two projects whose runners need no network once cached: mocha (JavaScript) and pytest (Python). */
const CONTEXT_BUGS = BUGS.filter((b) => b.project === 'bytes' || b.project === 'cachetools').filter((b) => b.kind !== 'type error').slice(0, 10);

export function caseIds(): string[] {
  return [...CALC_CASES.map((w) => `calc-${w.join('+')}`), ...CONTEXT_BUGS.map((b) => b.id)];
}

export function prepare(id: string): Prepared {
  if (id.startsWith('calc-')) return calcCase(id, id.slice(5).split('+'));
  const bug = CONTEXT_BUGS.find((b) => b.id === id)!;
  const project = PROJECTS.find((p) => p.name === bug.project)!;
  const ws = startWorkspace(project, bug);
  const text = fs.readFileSync(path.join(ws.cwd, bug.file), 'utf8');
  const line = text.split('\n').find((l) => l.trim() === bug.wrong.trim())!;
  const indent = /^\s*/.exec(line)![0];
  const python = project.language === 'Python';
  return {
    c: { id, source: 'context', lines: [{ file: bug.file, wrong: line, right: indent + bug.line.trim() }], testDir: python ? 'tests' : 'test', comment: python ? '#' : '//', testExt: python ? '.py' : '.js' },
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

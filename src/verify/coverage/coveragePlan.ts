// How a targeted run is made to measure what it executes, per runner: V8's own coverage for node-based runners (an
// environment variable, nothing in the command changes), go's -coverprofile, coverage.py around pytest and unittest. Or one
// sentence saying why this runner's run cannot say, and the run goes ahead without it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CoverageCollected, Witness } from '../../ports/verifier';
import type { RunnerFamily } from '../targeted/runnerStarts';
import type { Words } from '../targeted/words';
import { rankBySpectrum, type CoverageUnit } from './ochiai';
import { readV8Coverage } from './v8Coverage';
import { readGoProfile } from './goCoverage';
import { moduleUnderCoverage, pythonOf, readCoverageJson } from './pyCoverage';

export interface CoveragePlan {
  tool: string;
  /** Variables the narrowed command runs with. */
  env: Record<string, string>;
  /** The runner's words and arguments as the covered run gives them. */
  wrap(prefix: Words, args: Words): { prefix: Words; args: Words };
  /** What the run executed, ranked; `failingFiles`: workspace-relative files of the tests that failed. */
  read(w: Pick<Witness, 'failing' | 'exitCode'>, failingFiles: ReadonlySet<string>): Promise<CoverageCollected>;
  dispose(): void;
}

export interface PlanContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export function planCoverage(family: RunnerFamily, prefix: Words, ctx: PlanContext): CoveragePlan | { why: string } {
  switch (family) {
    case 'node':
    case 'mocha':
      return v8Plan(ctx);
    case 'jest':
    case 'vitest':
      // Both run a transformed copy of each file; V8's offsets would need their source maps to land on the file on disk.
      return { why: `${family} runs transformed copies of the files, whose V8 coverage does not map to the lines on disk` };
    case 'go':
      return goPlan(ctx);
    case 'pytest':
      return pytestPlan(prefix, ctx);
    case 'unittest':
      return unittestPlan(prefix, ctx);
    case 'cargo':
      return { why: 'cargo test has no coverage of its own (it needs an instrumented build, e.g. cargo-llvm-cov)' };
  }
}

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-coverage-'));
}

/** A unit failed when it loaded the file of a failing test; with no such file known, when the run failed at all. */
function verdictByFiles(failingFiles: ReadonlySet<string>, runFailed: boolean): (paths: ReadonlySet<string>) => boolean {
  return (paths) => (failingFiles.size ? [...failingFiles].some((f) => paths.has(f)) : runFailed);
}

function collected(tool: string, units: CoverageUnit[] | { why: string }): CoverageCollected {
  if (!Array.isArray(units)) return { ok: false, why: units.why };
  if (!units.some((u) => u.failed)) return { ok: false, why: `${tool} saw no workspace file executed by a failing test` };
  const ranked = rankBySpectrum(units);
  return { ok: true, tool, hints: ranked.hints, units: ranked.units };
}

function runFailed(w: Pick<Witness, 'failing' | 'exitCode'>): boolean {
  return w.failing.length > 0 || (w.exitCode ?? 1) !== 0;
}

function v8Plan(ctx: PlanContext): CoveragePlan {
  const dir = scratch();
  return {
    tool: 'V8',
    env: { NODE_V8_COVERAGE: dir },
    wrap: (prefix, args) => ({ prefix: withoutNpx(prefix, ctx.cwd), args }),
    read: async (w, failingFiles) => collected('V8', readV8Coverage(dir, ctx.cwd, verdictByFiles(failingFiles, runFailed(w)))),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `npx mocha` runs the workspace's own node_modules/.bin/mocha when it has one: called directly, npx's own process
 * (all of npm's code) is not measured too, which costs more than the tests on a small suite.
 */
function withoutNpx(prefix: Words, cwd: string): Words {
  const at = prefix.length - 1;
  if (at < 1 || !/(^|\/)npx$/.test(prefix[at - 1]) || prefix[at].includes('/')) return prefix;
  const local = path.join('node_modules', '.bin', prefix[at]);
  return fs.existsSync(path.join(cwd, local)) ? [...prefix.slice(0, at - 1), local] : prefix;
}

function goPlan(ctx: PlanContext): CoveragePlan {
  const dir = scratch();
  const profile = path.join(dir, 'cover.out');
  return {
    tool: 'go -coverprofile',
    env: {},
    // Every package of the module, not only the one under test: the bug may sit in a package the test imports.
    wrap: (prefix, args) => ({ prefix, args: [`-coverprofile=${profile}`, '-coverpkg=./...', ...args] }),
    read: async (w) => collected('go -coverprofile', readGoProfile(profile, ctx.cwd, runFailed(w))),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function pytestPlan(prefix: Words, ctx: PlanContext): CoveragePlan | { why: string } {
  const runner = prefix[prefix.length - 1] === 'pytest' && prefix[prefix.length - 2] === '-m' ? prefix[prefix.length - 3] : prefix[prefix.length - 1];
  const python = pythonOf(runner, ctx.env.PATH, ctx.cwd);
  if (!python) return { why: `the python that runs ${runner} could not be told (a version manager's shim, or not found); with \`python -m pytest\` as the test command it can` };
  const dir = scratch();
  const report = path.join(dir, 'coverage.json');
  const start = runner === prefix[prefix.length - 1] ? prefix.length - 1 : prefix.length - 3;
  return {
    tool: 'coverage.py',
    env: {},
    // One process, as `coverage run -m pytest` then `coverage json` would be three: python's start is most of a small suite's time.
    wrap: (words, args) => ({ prefix: [...words.slice(0, start), python, '-c', moduleUnderCoverage('pytest', report)], args }),
    read: async (w) => collected('coverage.py', readCoverageJson(report, ctx.cwd, runFailed(w), python)),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** `python -m unittest` under coverage.py in the same process; Django's `manage.py test` sets itself up first, so not it. */
function unittestPlan(prefix: Words, ctx: PlanContext): CoveragePlan | { why: string } {
  const at = prefix.length - 3;
  if (at < 0 || prefix[at + 1] !== '-m' || prefix[at + 2] !== 'unittest') return { why: "Django's test runner is not measured (only `python -m unittest` is run under coverage.py)" };
  const python = prefix[at];
  const dir = scratch();
  const report = path.join(dir, 'coverage.json');
  return {
    tool: 'coverage.py',
    env: {},
    wrap: (words, args) => ({ prefix: [...words.slice(0, at), python, '-c', moduleUnderCoverage('unittest', report)], args }),
    read: async (w) => collected('coverage.py', readCoverageJson(report, ctx.cwd, runFailed(w), python)),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

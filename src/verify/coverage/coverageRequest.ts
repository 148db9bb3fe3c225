// One targeted run's coverage from the narrowing to the reading: the runner's room decides the plan (the narrowing
// calls wrapRunner once it knows the runner), the run gets its variables, and what it executed is read and ranked afterwards.
import type { CoverageCollected, SpectrumUnit, TestTarget, Witness } from '../../ports/verifier';
import type { CoveragePlan, CoverageUnit, PlanContext } from '../../runners/runner';
import { runnerNamed } from '../../runners/registry';
import { rankBySpectrum } from './ochiai';

export class CoverageRequest {
  private plan: CoveragePlan | { why: string } | null = null;

  constructor(private readonly ctx: PlanContext) {}

  readonly wrapRunner = (runner: string, prefix: string[], args: string[]): { prefix: string[]; args: string[] } | null => {
    this.plan = runnerNamed(runner)?.code().coverage(prefix, this.ctx) ?? { why: `Greenloop knows no coverage for ${runner}` };
    return 'wrap' in this.plan ? this.plan.wrap(prefix, args) : null;
  };

  get env(): Record<string, string> | null {
    return this.plan && 'env' in this.plan ? this.plan.env : null;
  }

  /** `failing`: this run is the spectrum's passing side, ranked beside those failing units (TargetedOptions.passingBeside). */
  async read(w: Witness, targets: readonly TestTarget[], failing?: readonly SpectrumUnit[]): Promise<CoverageCollected> {
    if (!this.plan) return { ok: false, why: 'the runner was not found in the command' };
    if (!('read' in this.plan)) return { ok: false, why: this.plan.why };
    if (w.timedOut) return { ok: false, why: 'the covered run timed out' };
    // A test that fails in the passing run would count its lines as passing: the run says nothing then.
    if (failing && w.failing.length) return { ok: false, why: `${w.failing.length} of the tests run as passing failed` };
    const files = new Set<string>();
    for (const f of [...w.failures, ...targets]) if (f.file && w.failing.includes(f.id)) files.add(f.file.replace(/^\.\//, ''));
    const units = await this.plan.read(w, files);
    if (!failing || !Array.isArray(units)) return collected(this.plan.tool, units);
    return collected(this.plan.tool, [...failing, ...units.map((u) => ({ ...u, failed: false }))]);
  }

  dispose(): void {
    if (this.plan && 'dispose' in this.plan) this.plan.dispose();
  }
}

/** The units ranked, or why there is nothing to rank: a run whose failing tests executed no workspace file says nothing. */
function collected(tool: string, units: CoverageUnit[] | { why: string }): CoverageCollected {
  if (!Array.isArray(units)) return { ok: false, why: units.why };
  if (!units.some((u) => u.failed)) return { ok: false, why: `${tool} saw no workspace file executed by a failing test` };
  const ranked = rankBySpectrum(units);
  return { ok: true, tool, hints: ranked.hints, units: ranked.units, spectrum: units.filter((u) => u.failed) };
}

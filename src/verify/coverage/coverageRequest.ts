// One targeted run's coverage from the narrowing to the reading: the runner's room decides the plan (the narrowing
// calls wrapRunner once it knows the runner), the run gets its variables, and what it executed is read and ranked afterwards.
import type { CoverageCollected, TestTarget, Witness } from '../../ports/verifier';
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

  async read(w: Witness, targets: readonly TestTarget[]): Promise<CoverageCollected> {
    if (!this.plan) return { ok: false, why: 'the runner was not found in the command' };
    if (!('read' in this.plan)) return { ok: false, why: this.plan.why };
    if (w.timedOut) return { ok: false, why: 'the covered run timed out' };
    const files = new Set<string>();
    for (const f of [...w.failures, ...targets]) if (f.file && w.failing.includes(f.id)) files.add(f.file.replace(/^\.\//, ''));
    return collected(this.plan.tool, await this.plan.read(w, files));
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
  return { ok: true, tool, hints: ranked.hints, units: ranked.units };
}

// One targeted run's coverage from the narrowing to the reading: the runner decides the plan (narrow.ts calls
// wrapRunner once it knows it), the run gets its variables, and what it executed is read and ranked afterwards.
import type { CoverageCollected, TestTarget, Witness } from '../../ports/verifier';
import type { RunnerFamily } from '../targeted/runnerStarts';
import type { Words } from '../targeted/words';
import { planCoverage, type CoveragePlan, type PlanContext } from './coveragePlan';

export class CoverageRequest {
  private plan: CoveragePlan | { why: string } | null = null;

  constructor(private readonly ctx: PlanContext) {}

  readonly wrapRunner = (family: RunnerFamily, prefix: Words, args: Words): { prefix: Words; args: Words } | null => {
    this.plan = planCoverage(family, prefix, this.ctx);
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
    return this.plan.read(w, files);
  }

  dispose(): void {
    if (this.plan && 'dispose' in this.plan) this.plan.dispose();
  }
}

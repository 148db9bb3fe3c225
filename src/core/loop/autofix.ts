// Attempt 0: before the first model call, the project's own fixers of the checkers that report errors run once, as
// one more turn through the same steps as any attempt. What the model then reads says what they did.
import type { FixTarget, Fixers } from '../../ports/fixers';
import type { RunState, WitnessSummary } from '../../ports/runState';
import type { Stop } from './bounds/termination';
import type { LoopContext } from './loopContext';
import { runAttempt } from './runAttempt';
import { AutofixTurn } from './turns/autofixTurn';

/** The run's first attempt when a failing check has a fixer: its stop (green, or a guard), or null to go on. */
export async function runAutofix(ctx: LoopContext, state: RunState): Promise<Stop | null> {
  const { fixers, config } = ctx.deps;
  if (!fixers || config.autofix === 'off' || state.iterations.length > 0) return null;
  const targets = fixTargets(state.current.witness, fixers);
  if (targets.length === 0) return null;
  const stop = await runAttempt(ctx, state, new AutofixTurn(fixers, targets));
  const record = state.iterations[state.iterations.length - 1];
  if (record?.actor === 'autofix') state.feedback = feedbackAfter(record.commands?.map((c) => `\`${c.command}\``) ?? [], record.verdict, record.rolledBack, record.note);
  return stop;
}

/** The failing checks (by command) with a fixer here, and the files their errors name. */
export function fixTargets(witness: WitnessSummary, fixers: Fixers): FixTarget[] {
  const checkers = witness.checkers ?? {};
  const failing = Object.keys(checkers).filter((command) => witness.diagnostics.some((d) => checkers[command].sources.includes(d.source ?? 'tsc')));
  return fixers.fixable(failing).map((check) => ({
    check,
    files: [...new Set(witness.diagnostics.filter((d) => d.file && checkers[check].sources.includes(d.source ?? 'tsc')).map((d) => d.file))].sort(),
  }));
}

/** What the first prompt says of the fixers: what they ran, and whether their change stayed. */
function feedbackAfter(commands: string[], verdict: string, rolledBack: boolean, note: string): string {
  const ran = `Greenloop ran the project's own fixers first (${commands.join(', ') || 'none could run'})`;
  if (verdict === 'invalid-proposal') return `${ran}; their change was refused: ${note} The errors below are the original ones: fix them by hand.`;
  if (rolledBack) return `${ran}; their change broke what passed (${note}), so it was undone. The errors below are the original ones: fix them by hand, keeping what passes passing.`;
  return `${ran} and kept their change (${verdict}: ${note}). What is still failing is below.`;
}

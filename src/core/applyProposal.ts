// Turns an actor's answer into workspace changes, or into a reason the proposal is invalid. Either way the
// iteration record says what happened; nothing here judges whether the change helped.
import { createHash } from 'crypto';
import type { SnapshotStore } from './ports';
import type { IterationRecord, RunState } from './runState';
import { parseEditBlocks } from './edits/parseBlocks';
import { applyEditBlocks } from './edits/applyBlocks';
import { checkPath } from './edits/pathPolicy';
import type { PathPolicy } from './edits/pathPolicy';
import { proposalHash } from './edits/proposalHash';
import { summarizeHypothesis } from './hypothesis';

export interface ApplyContext {
  cwd: string;
  policy: PathPolicy;
  snapshots: SnapshotStore;
}

/** A model's SEARCH/REPLACE answer: parsed, checked against earlier proposals, applied all-or-nothing. */
export async function applyModelAnswer(ctx: ApplyContext, state: RunState, record: IterationRecord, text: string): Promise<boolean> {
  const parsed = parseEditBlocks(text);
  record.hypothesis = summarizeHypothesis(parsed.prose);
  if (parsed.errors.length) {
    record.note = `The answer could not be used: ${parsed.errors.join(' ')}`;
    return false;
  }
  record.proposalHash = proposalHash(parsed.blocks);
  record.files = [...new Set(parsed.blocks.map((b) => b.path))];
  if (state.seenProposals.includes(record.proposalHash)) {
    const earlier = state.iterations.find((it) => it.proposalHash === record.proposalHash);
    record.note = `Exactly the same edit as attempt ${earlier?.n ?? '?'}; not applied again.`;
    return false;
  }
  const result = await applyEditBlocks(ctx.cwd, parsed.blocks, ctx.policy);
  if (!result.ok) {
    record.note = `The edit was refused and nothing was applied: ${result.reason}`;
    return false;
  }
  record.files = result.files;
  return true;
}

/** An agent CLI edited files itself: what it touched must pass the same path rules as a model's blocks. */
export async function acceptAgentEdits(ctx: ApplyContext, state: RunState, record: IterationRecord): Promise<boolean> {
  const before = state.current.snapshot;
  const changed = await ctx.snapshots.changedSince(before);
  record.files = changed;
  if (changed.length === 0) {
    record.note = 'The agent finished without changing any file.';
    return false;
  }
  const refused = changed.map((rel) => checkPath(ctx.policy, rel)).filter((c): c is { ok: false; reason: string } => !c.ok);
  if (refused.length) {
    await ctx.snapshots.restore(before);
    record.note = `The agent's changes were undone: ${refused.map((r) => r.reason).join(' ')}`;
    return false;
  }
  const probe = await ctx.snapshots.snapshot('agent-edit');
  // The diff is the agent's "proposal": the same change made twice hashes the same.
  record.proposalHash = createHash('sha256').update(await ctx.snapshots.diff(before, probe.id)).digest('hex');
  return true;
}

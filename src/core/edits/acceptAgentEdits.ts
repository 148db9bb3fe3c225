// Checks what an agent CLI changed itself against the same rules as a model's blocks, and puts back what it may not
// change. The iteration record says what happened; nothing here judges whether the change helped.
import { createHash } from 'crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IterationRecord, RunState } from '../../ports/runState';
import { checkPath } from './pathPolicy';
import { protectedPartChange, protectedParts } from './protectedContent';
import { witnessEditRefusal } from './applyBlocks';
import { castWarningsOfEdit } from './castWarnings';
import { runningCheckers } from './suppressions';
import { journaledRestore } from '../loop/states/rollback';
import { listPaths, type ApplyContext } from './applyContext';

/**
 * The test scripts, pytest and checker sections an agent changed, assertions it disarmed and suppressions it added,
 * against the snapshot before it ran.
 */
async function witnessEdits(ctx: ApplyContext, state: RunState, before: string, changed: string[]): Promise<{ refused: Array<{ path: string; reason: string }>; casts: string[] }> {
  const out: Array<{ path: string; reason: string }> = [];
  const rules = { allowSuppressions: state.config.allowSuppressions, checkScripts: state.config.checkScripts, checkers: runningCheckers(state.current.witness) };
  const parts = protectedParts(rules.checkScripts);
  const writes: Array<{ rel: string; before: string | null; after: string }> = [];
  for (const rel of changed) {
    let now: string | null = null;
    try {
      const buf = fs.readFileSync(path.join(ctx.cwd, rel));
      now = buf.includes(0) ? null : buf.toString('utf8');
    } catch {
      now = null;
    }
    const isPart = parts.some((p) => rel === p.file || rel.endsWith(`/${p.file}`));
    if (!isPart && now === null) continue;
    const wasBuf = await ctx.snapshots.readFile(before, rel);
    const was = wasBuf === null ? null : wasBuf.toString('utf8');
    // A protected part deleted with its file is a change too; a deleted file adds no directive.
    const reason = now === null ? (ctx.policy.allowTestEdits ? null : protectedPartChange(rel, was, null, rules.checkScripts)) : witnessEditRefusal(rel, was, now, ctx.policy, rules);
    if (reason) out.push({ path: rel, reason });
    else if (now !== null) writes.push({ rel, before: was, after: now });
  }
  const casts = castWarningsOfEdit(writes, state.current.witness.diagnostics);
  return { refused: out, casts };
}

/** Who edited, for the notes: an agent CLI, or the project's own fixers. */
const WHO = {
  agent: { nothing: 'The agent finished without changing any file.', whose: "the agent's" },
  fixers: { nothing: "The project's fixers changed no file.", whose: "the fixers'" },
} as const;

/** An agent CLI (or a fixer) edited files itself: what it touched must pass the same path rules as a model's blocks. */
export async function acceptAgentEdits(ctx: ApplyContext, state: RunState, record: IterationRecord, who: keyof typeof WHO = 'agent'): Promise<boolean> {
  const words = WHO[who];
  const before = state.current.snapshot;
  const changed = await ctx.snapshots.changedSince(before);
  record.files = changed;
  if (changed.length === 0) {
    record.note = words.nothing;
    return false;
  }
  // Judged path by path: what the agent may not change is put back, the rest of its work is kept and tested.
  const refused: Array<{ path: string; reason: string }> = [];
  for (const rel of changed) {
    const c = checkPath(ctx.policy, rel);
    if (!c.ok) refused.push({ path: rel, reason: c.reason });
  }
  const judged = await witnessEdits(ctx, state, before, changed);
  for (const r of judged.refused) if (!refused.some((x) => x.path === r.path)) refused.push(r);
  if (judged.casts.length) record.castWarnings = judged.casts;
  if (refused.length) {
    const paths = refused.map((r) => r.path);
    await journaledRestore(ctx, state, before, paths);
    record.reverted = refused;
    record.files = changed.filter((p) => !paths.includes(p));
    const put = `put back ${listPaths(paths)}: ${refused.map((r) => r.reason).join(' ')}`;
    if (record.files.length === 0) {
      record.note = `${capital(words.whose)} changes were undone (${put})`;
      return false;
    }
    record.note = `Kept ${words.whose} other changes; ${put}`;
  }
  // changedSince just looked at every file: only what was put back since needs another look.
  const probe = await ctx.snapshots.snapshot('agent-edit', refused.map((r) => r.path));
  // The diff is the agent's "proposal": the same change made twice hashes the same.
  record.proposalHash = createHash('sha256').update(await ctx.snapshots.diff(before, probe.id)).digest('hex');
  // Nothing writes between here and the tests: this look is the attempt's state, not taken a second time.
  record.afterSnapshot = probe.id;
  record.treeHash = probe.tree;
  return true;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

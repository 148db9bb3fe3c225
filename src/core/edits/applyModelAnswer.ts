// Turns a model's answer into workspace changes, or into a reason the proposal is invalid. Either way the iteration
// record says what happened; nothing here judges whether the change helped.
import type { IterationRecord, RunState } from '../../ports/runState';
import { parseEditBlocks } from './parseBlocks';
import { applyEditBlocks } from './applyBlocks';
import { castWarningsOfEdit } from './castWarnings';
import { runningCheckers } from './suppressions';
import { checkPath, checkReadable } from './pathPolicy';
import type { PathPolicy } from './pathPolicy';
import { proposalHash, unusableAnswerHash } from './proposalHash';
import { summarizeHypothesis } from './hypothesis';
import { Pacer } from './pacer';
import { blobId } from '../../base/blobId';
import { journaledRestore } from '../loop/states/rollback';
import { listPaths, type ApplyContext } from './applyContext';

/** A model's SEARCH/REPLACE answer: parsed, checked against earlier proposals, applied all-or-nothing. */
export async function applyModelAnswer(ctx: ApplyContext, state: RunState, record: IterationRecord, text: string): Promise<boolean> {
  const parsed = parseEditBlocks(text);
  record.hypothesis = summarizeHypothesis(parsed.prose);
  if (parsed.errors.length || parsed.blocks.length === 0) {
    record.proposalHash = unusableAnswerHash(text);
    const why = parsed.errors.length ? firstProblems(parsed.errors) : 'it contains no SEARCH/REPLACE block, so nothing was changed.';
    record.note = repeatedNote(state, record.proposalHash) ?? `The answer could not be used: ${why}`;
    return false;
  }
  record.proposalHash = proposalHash(parsed.blocks);
  record.files = [...new Set(parsed.blocks.map((b) => b.path))];
  const repeated = repeatedNote(state, record.proposalHash);
  if (repeated) {
    record.note = repeated;
    return false;
  }
  // Snapshots skip git-ignored files, so an edit there could never be rolled back: refuse it before writing.
  // Asked by where each edit really lands: a path through a linked folder is recorded at the link's target.
  const pacer = new Pacer(ctx.signal);
  const rels: string[] = [];
  for (const b of parsed.blocks) {
    await pacer.step();
    const r = checkPath(ctx.policy, b.path);
    if (r.ok) rels.push(r.realRel);
  }
  const unrecorded = await ctx.snapshots.unrecorded(rels);
  if (unrecorded.length) {
    const one = unrecorded.length === 1;
    record.note = `The edit was refused and nothing was applied: ${unrecorded.join(', ')} ${one ? 'is' : 'are'} ignored by git (.gitignore or the snapshot excludes), so Greenloop could not roll ${one ? 'it' : 'them'} back; change tracked source files instead.`;
    return false;
  }
  const matchedBy: Record<string, number> = {};
  const result = await applyEditBlocks(
    ctx.cwd,
    parsed.blocks,
    ctx.policy,
    async (writes) => {
      const casts = castWarningsOfEdit(writes.map((w) => ({ rel: w.rel, before: w.before === null ? null : w.before.toString('utf8'), after: w.after })), state.current.witness.diagnostics);
      if (casts.length) record.castWarnings = casts;
      if (ctx.intent) ctx.memory?.remember(ctx.intent.returnTo, writes);
      if (!ctx.intent || !ctx.journal) return;
      const paths = writes.map((w) => ({ path: w.rel, before: w.before === null ? null : blobId(w.before), after: blobId(w.after) }));
      await ctx.journal.intend({ kind: 'apply', ...ctx.intent, paths });
    },
    ctx.signal,
    { allowSuppressions: state.config.allowSuppressions, checkScripts: state.config.checkScripts, checkers: runningCheckers(state.current.witness) },
    matchedBy,
  );
  if (!result.ok) {
    record.note = `The edit was refused and nothing was applied: ${result.reason}`;
    return false;
  }
  // Not a cycle: the model did not go anywhere. Told so, it can still find the fix (a cycle would end the run).
  if (result.files.length === 0) {
    record.note = `The edit changes nothing: each block's replacement is exactly what ${record.files.length === 1 ? record.files[0] : 'the files'} already ${record.files.length === 1 ? 'holds' : 'hold'}; change the lines that cause the failure.`;
    return false;
  }
  record.files = result.files;
  record.matchedBy = matchedBy;
  const hidden = await hiddenByItsOwnRules(ctx, state, result.files);
  if (hidden.length) {
    const one = hidden.length === 1;
    record.note = `The edit was refused and undone: it makes git ignore ${listPaths(hidden, 'and')}, which it wrote itself, so no snapshot would record ${one ? 'it' : 'them'} and no rollback could remove ${one ? 'it' : 'them'}; leave the ignore rules as they are, or ignore only files that already exist.`;
    return false;
  }
  return true;
}

/**
 * The ignore rules an edit writes (a .gitignore line, a nested .gitignore, a negation taken away) may hide the very
 * files it wrote, which no snapshot would then record: checked once the edit is on disk, where git reads the rules,
 * and then undone at once from the snapshot taken before it. Returns the hidden paths (none: the edit stands).
 */
async function hiddenByItsOwnRules(ctx: ApplyContext, state: RunState, files: string[]): Promise<string[]> {
  const real = writtenRealPaths(ctx.policy, files) ?? files;
  const hidden = await ctx.snapshots.unrecorded(real);
  if (hidden.length === 0) return [];
  await journaledRestore(ctx, state, ctx.intent?.returnTo ?? state.current.snapshot, real);
  ctx.memory?.forget();
  return hidden;
}

/**
 * Where an applied answer's files really are (links followed), for a snapshot that looks at them alone; undefined
 * when one cannot be resolved, and the snapshot then looks at everything.
 */
export function writtenRealPaths(policy: PathPolicy, files: readonly string[]): string[] | undefined {
  const out: string[] = [];
  for (const rel of files) {
    const c = checkReadable(policy, rel);
    if (!c.ok) return undefined;
    out.push(c.realRel);
  }
  return out;
}

/** The first few problems of a broken answer: the note goes into the next prompt, whatever the answer's size. */
function firstProblems(errors: string[]): string {
  const SHOWN = 3;
  const more = errors.length - SHOWN;
  return errors.slice(0, SHOWN).join(' ') + (more > 0 ? ` (${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'} like these.)` : '');
}

function repeatedNote(state: RunState, hash: string): string | null {
  if (!state.seenProposals.includes(hash)) return null;
  const earlier = state.iterations.find((it) => it.proposalHash === hash);
  return `Exactly the same answer as attempt ${earlier?.n ?? '?'}; not applied again.`;
}

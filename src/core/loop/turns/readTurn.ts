// A model's answer that asks for code (READ lines, no edit) is answered by the next turn of the same attempt: the
// prompt grows by the answer and the code it asked for. Bounded: at most MAX_READS per attempt, each call counted and
// charged as any other, the code cut to the token budget; asking only for code the prompt already shows is a
// repeated proposal. An answer with edit blocks is applied as it is, its READ lines ignored (and the note says so).
import { createHash } from 'node:crypto';
import type { ActorResponse } from '../../../ports/actor';
import type { RunState } from '../../../ports/runState';
import { estimateTokens } from '../../../base/estimateTokens';
import { CHARS_PER_TOKEN, trimSection } from '../../../base/textTrim';
import { parseEditBlocks } from '../../edits/parseBlocks';
import { MIN_ANSWER_TOKENS, tokenRoom } from '../bounds/budget';
import { escalate, tokensUsed } from '../bounds/termination';
import { over, recordOf, type Attempt, type AttemptOver } from '../attempt';
import type { LoopContext } from '../loopContext';
import { recordAttempt } from '../record';
import { readCode, type ReadResult } from './readCode';
import { readRequests } from './readRequests';

/** Reads one attempt may make (the contract's bound). */
export const MAX_READS = 3;
/** Tokens of code one READ may show; three of them are the prompt's default code context (6,000). */
export const READ_TOKENS = 2000;

// A broken block is still an edit: applying it tells the model what is wrong with it.
const EDIT_MARKER = /^\s*(?:<{5,9}\s*SEARCH|>{5,9}\s*REPLACE)\s*$/im;

export const IGNORED_READS_NOTE = 'its READ lines were ignored: an answer with edits is applied as it is';

/** 'apply': the answer goes on to be applied; 'again': the prompt grew, ask once more; or the attempt is over. */
export async function answerReads(ctx: LoopContext, state: RunState, attempt: Attempt, response: ActorResponse): Promise<'apply' | 'again' | AttemptOver> {
  if (response.kind !== 'text' || ctx.deps.actor.external || ctx.deps.actor.editsWorkspace) return 'apply';
  const requests = readRequests(response.text);
  if (requests.length === 0) return 'apply';
  if (parseEditBlocks(response.text).blocks.length || EDIT_MARKER.test(response.text)) {
    attempt.actorNote = attempt.actorNote ? `${attempt.actorNote}; ${IGNORED_READS_NOTE}` : IGNORED_READS_NOTE;
    return 'apply';
  }
  const record = recordOf(attempt);
  const before = record.reads ?? [];
  record.reads = [...before, ...requests.map((r) => r.asked)];
  if (record.reads.length > MAX_READS) {
    const past = record.reads.slice(MAX_READS).map((r) => `READ ${r}`).join(', ');
    return endAttempt(ctx, state, attempt, `The answer asked to ${past}, past the ${MAX_READS} reads one attempt may make, and was refused: this attempt ended without an edit. Answer with SEARCH/REPLACE blocks from the code shown.`);
  }
  const prompt = attempt.prompt ?? { user: '', system: '' };
  const perRead = readChars(state, estimateTokens(prompt.system) + estimateTokens(prompt.user), requests.length);
  const results: ReadResult[] = [];
  for (const req of requests) {
    if (perRead < 400) results.push({ kind: 'refused', sentence: `READ ${req.asked} was refused: the token budget has no room left to show more code.` });
    else results.push(await readCode(readSources(ctx), req, prompt.user, perRead));
  }
  const repeats = results.flatMap((r) => (r.kind === 'repeat' ? [r.what] : []));
  if (repeats.length === results.length) {
    record.proposalHash = createHash('sha256').update(`read\0${repeats.join('\0')}`).digest('hex');
    endAttempt(ctx, state, attempt, `The answer asked to READ ${repeats.join(', ')}, which the prompt already shows; not shown again.`);
    return over(escalate('repeated-proposal', `Attempt ${attempt.n} asked to READ ${repeats.join(', ')}, which its prompt already showed.`));
  }
  const left = MAX_READS - record.reads.length;
  const shown = results.map((r) => (r.kind === 'shown' ? r.text : r.kind === 'refused' ? r.sentence : `${r.what} is already shown above.`));
  const user = `${prompt.user}\n\n## Your answer\n${ctx.deps.redactor.text(trimSection(response.text.trim(), 2000))}\n\n## Code you asked to READ\n${shown.join('\n\n')}\n\n`
    + `Answer now with SEARCH/REPLACE blocks${left > 0 ? `, or READ again (${left} read${left === 1 ? '' : 's'} left in this attempt)` : ' (no reads left in this attempt)'}.`;
  const room = tokenRoom(state, estimateTokens(prompt.system) + estimateTokens(user));
  if (!room.ok) return endAttempt(ctx, state, attempt, `The code the answer asked to READ does not fit the token budget: ${room.text}`);
  attempt.prompt = { user, system: prompt.system, maxOutputTokens: room.maxOutputTokens };
  return 'again';
}

/** Characters each read may show: READ_TOKENS, or less when the token budget leaves less beside an answer. */
function readChars(state: RunState, promptTokens: number, reads: number): number {
  const { maxTokens } = state.limits;
  const cap = READ_TOKENS * CHARS_PER_TOKEN;
  if (maxTokens <= 0) return cap;
  const spare = maxTokens - tokensUsed(state) - promptTokens - 4 * MIN_ANSWER_TOKENS;
  return Math.min(cap, Math.floor((Math.max(0, spare) * CHARS_PER_TOKEN) / 2 / reads));
}

function readSources(ctx: LoopContext) {
  return {
    policy: ctx.policy, reader: ctx.deps.codeReader, redact: (t: string) => ctx.deps.redactor.text(t),
    unrecorded: (rels: string[]) => ctx.deps.snapshots.unrecorded(rels),
  };
}

/** The attempt ends as an invalid proposal: the note reaches the next prompt, and counts toward patience. */
function endAttempt(ctx: LoopContext, state: RunState, attempt: Attempt, note: string): AttemptOver {
  const record = recordOf(attempt);
  record.note = note;
  ctx.events.emit({ type: 'proposal-received', n: record.n, tokens: record.tokens, files: [] });
  return recordAttempt(ctx, state, record, 'invalid-proposal');
}

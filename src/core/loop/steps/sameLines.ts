// When the latest attempt cannot be judged without the earlier edits it was tested with — both changed the very same
// lines — it is rolled back with them; the note and the next prompt say which lines, so the model can make its
// change again on the best state instead of guessing why a right edit was thrown away.
import type { LineSpan, ReplayConflict } from '../../../ports/snapshots';
import { listForNote, type Judgement } from '../../judge/witnessCompare';

/** What the note and the next prompt say about an attempt that could not be judged apart from earlier edits. */
export interface SameLines {
  /** "attempt 1's edit", "the edits of attempts 1 and 2". */
  earlier: string;
  /** "line 4 of `src/calc.js`", in the best state's line numbers (what the next prompt shows). */
  where: string;
}

const SHOWN_FILES = 3;
const SHOWN_SPANS = 4;

function spanText(s: LineSpan): string {
  if (s.count === 0) return s.start === 0 ? 'the lines added at the top' : `the lines added after line ${s.start}`;
  return s.count === 1 ? `line ${s.start}` : `lines ${s.start}-${s.start + s.count - 1}`;
}

function fileText(c: ReplayConflict): string {
  if (c.lines.length === 0) return `\`${c.path}\` as a whole`;
  const spans = c.lines.slice(0, SHOWN_SPANS).map(spanText);
  const more = c.lines.length > SHOWN_SPANS ? ` and ${c.lines.length - SHOWN_SPANS} more places` : '';
  const list = spans.length === 1 ? spans[0] : `${spans.slice(0, -1).join(', ')} and ${spans[spans.length - 1]}`;
  return `${list}${more} of \`${c.path}\``;
}

/** "line 4 of `src/calc.js`; `img.png` as a whole" — the places both changed, in the best state's numbering. */
export function sameLinesText(conflicts: readonly ReplayConflict[]): string {
  const shown = conflicts.slice(0, SHOWN_FILES).map(fileText).join('; ');
  return conflicts.length > SHOWN_FILES ? `${shown} and ${conflicts.length - SHOWN_FILES} more files` : shown;
}

/** The next prompt's feedback: what broke, why the attempt was not judged alone, and that it may be made again. */
export function sameLinesFeedback(j: Judgement, same: SameLines): string {
  const broke = j.newlyFailing.length ? `broke ${listForNote(j.newlyFailing)}` : 'made tests disappear';
  return `your edit was tested with ${same.earlier} still in the workspace (no whole-suite run had seen it), and together they ${broke}. Your edit could not be tested without it: both changed ${same.where} (line numbers of the files as shown now). Both were rolled back to the best state; if your change was right, make it again on the files as shown, leaving out what ${same.earlier} changed there.`;
}

// The next prompt says what the attempt's other answers tried and what became of them, in a line each, so the model
// does not offer them again; the chosen one's result is the feedback the pipeline already wrote.
import type { CandidateRecord, RunState } from '../../../ports/runState';
import type { Attempt } from '../attempt';

const WORDS: Record<CandidateRecord['verdict'], string> = {
  green: 'the failing tests passed', progress: 'some failing tests passed', 'no-progress': 'no failing test passed',
  refused: 'refused', repeat: 'a repeat', missing: 'did not arrive',
};

export function othersTried(state: RunState, attempt: Attempt): void {
  const all = attempt.record?.candidates;
  if (!all) return;
  const others = all.filter((c) => !c.chosen && c.verdict !== 'missing');
  if (others.length === 0) return;
  const lines = others.slice(0, 4).map((c) => {
    const what = c.files.length ? `edited ${c.files.slice(0, 3).join(', ')}` : 'changed nothing';
    const why = c.verdict === 'refused' || c.verdict === 'repeat' ? ` (${c.note.replace(/[.\s]+$/, '').slice(0, 160)})` : '';
    return `answer ${c.k} ${what}: ${WORDS[c.verdict]}${why}`;
  });
  const chosen = all.find((c) => c.chosen);
  state.feedback = `${state.feedback.replace(/\s+$/, '')}\nThis attempt asked for ${all.length} answers${chosen ? ` and kept answer ${chosen.k}` : ''}; the others, not kept: ${lines.join('; ')}${others.length > 4 ? `; and ${others.length - 4} more` : ''}.`;
}

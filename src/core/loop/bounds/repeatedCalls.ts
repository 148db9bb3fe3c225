// An agent's attempt that makes the very edit calls its previous attempt made, and leaves the tests saying exactly
// what they said after it, proposes the same edit again (`repeated-proposal`, issue 38). Its diff may differ — each
// repeat of a growing edit appends one more comment to what the last attempt left — so the diff's hash cannot tell;
// the calls can: the same tools with the same arguments (normalized by the gateway), each once, whatever their order
// and however often each was made. A repeat the tests do see (a counter one step further: `2 !== 3` after `1 !== 3`)
// is left to patience.
import type { IterationRecord, RunState } from '../../../ports/runState';
import { failureGist } from '../../../base/failureGist';
import type { Stop } from './termination';

/** The same stop as a repeated diff; null when the last attempt is no agent's, made progress, or tried something new. */
export function repeatedAgentCalls(state: RunState, escalate: (text: string) => Stop): Stop | null {
  const last = state.iterations.at(-1);
  const before = state.iterations.at(-2);
  if (!last || !before || last.verdict === 'progress' || last.verdict === 'green') return null;
  const now = callsOf(last);
  const then = callsOf(before);
  if (!now.size || now.size !== then.size || [...now.keys()].some((key) => !then.has(key))) return null;
  if (testsSaid(last, state.cwd) !== testsSaid(before, state.cwd)) return null;
  const named = [...now.values()].slice(0, 3).map((call) => `\`${call}\``).join(', ');
  const more = now.size > 3 ? ` and ${now.size - 3} more` : '';
  return escalate(`Attempt ${last.n} made the same edit calls as attempt ${before.n} (${named}${more}), and the tests failed the same way after both.`);
}

function callsOf(record: IterationRecord): Map<string, string> {
  return new Map((record.agent?.changingCalls ?? []).map((c) => [c.key, c.call]));
}

/** The failing tests with what each said, and the diagnostics, after the attempt (nothing measured: its IDs alone). */
function testsSaid(record: IterationRecord, cwd: string): string {
  const w = record.witness;
  if (!w) return `not measured\0${record.failing.join('\0')}`;
  const failures = w.failures.map((f) => `${f.id}\0${failureGist(f.message, cwd)}`).sort();
  const diagnostics = w.diagnostics.map((d) => `${d.source ?? 'tsc'}\0${d.file}\0${d.code}\0${d.message}`).sort();
  return [...failures, ...(w.loadErrorFiles ?? []), ...diagnostics].join('\u0001');
}

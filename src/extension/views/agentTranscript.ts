// An agent attempt's transcript as a read-only document: what the model last told the agent, every request the
// gateway saw, and the tail of the agent's own output. Pure (text and addresses), so it is tested without VS Code.
import type { AgentAttempt } from '../../ports/actor';
import { agentCountsText } from '../../shared/plainWords';

export const TRANSCRIPT_SCHEME = 'greenloop-transcript';

export interface TranscriptAddress {
  /** The workspace folder's URI as a string. */
  folder: string;
  runId: string;
  n: number;
}

export function transcriptUriParts(a: TranscriptAddress): { scheme: string; path: string; query: string } {
  // The path names the document's tab; .md so it reads as Markdown.
  return { scheme: TRANSCRIPT_SCHEME, path: `/Agent, attempt ${a.n}.md`, query: JSON.stringify(a) };
}

/** Null for anything this extension did not produce (a hand-typed or stale URI). */
export function parseTranscriptQuery(query: string): TranscriptAddress | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(query);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { folder, runId, n } = parsed as Record<string, unknown>;
  if (typeof folder !== 'string' || !folder || typeof runId !== 'string' || !runId || typeof n !== 'number' || !Number.isInteger(n)) return null;
  return { folder, runId, n };
}

/** A fence longer than any run of backticks in the text, so output that holds fences cannot end the block. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text.replace(/\s+$/, '')}\n${fence}`;
}

/** Table cells: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

export function agentTranscriptText(n: number, agent: AgentAttempt, reverted: ReadonlyArray<{ path: string; reason: string }> = []): string {
  const lines = [`# Agent, attempt ${n}`, '', `${agentCountsText(agent)}.${agent.exactTokens ? '' : ' Some token counts are estimates.'}`, ''];
  if (reverted.length) {
    lines.push('## Put back', '', ...reverted.map((r) => `- \`${r.path}\`: ${r.reason}`), '');
  }
  lines.push('## The model\'s last message', '', agent.lastMessage.trim() ? fenced(agent.lastMessage) : '_(none)_', '');
  lines.push('## Requests', '');
  if (agent.log.length) {
    lines.push('| # | answered by | status | tokens in / out | tools called before | answer |', '|---|---|---|---|---|---|');
    for (const r of agent.log) {
      lines.push(`| ${r.n} | ${cell(r.answeredBy === 'upstream' ? 'the model' : `Greenloop: ${r.answeredBy}`)} | ${r.status} | ${r.promptTokens} / ${r.completionTokens} | ${cell(r.calls.join(', ')) || '—'} | ${cell(r.answer) || '—'} |`);
    }
  } else {
    lines.push('_No request went through Greenloop\'s gateway._');
  }
  lines.push('', '## The agent\'s output (its tail)', '', agent.output.trim() ? fenced(agent.output) : '_(no output)_', '');
  return lines.join('\n');
}

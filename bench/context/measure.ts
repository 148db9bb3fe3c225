// What the first prompt shows of the code: every section but those that carry the failures, the budget and the edit
// format (so a new code section, a map or an outline, counts without a change here), and whether the wrong line is
// in it — next to one of its neighbours, so a common line like `return a;` shown elsewhere does not count.
import { estimateTokens } from '../../src/base/estimateTokens';

/** Sections of today's prompt that are not code (src/core/prompt/prompt.ts). */
const NOT_CODE = [
  'Warning', 'Earlier runs on these failures', 'Hint from the person supervising this loop', 'Previous attempt', 'The test run stopped early',
  'The tests passed, but the test command failed', 'The test suite did not load or run properly', 'Goal of this run',
  'Test files that did not load', 'Failing tests', 'Type errors', 'Checker errors', 'Edit format',
];

/** The prompt's code context: its `## ` sections (found outside code fences) that are not in NOT_CODE. */
export function codeContext(prompt: string): string {
  const kept: string[] = [];
  let keep = false;
  let fenced = false;
  for (const line of prompt.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && line.startsWith('## ')) {
      const title = line.slice(3).replace(/\s*\(\d+\)\s*$/, '').trim();
      keep = !NOT_CODE.includes(title);
      continue;
    }
    if (keep) kept.push(line);
  }
  return kept.join('\n');
}

export interface Found { found: boolean; tokens: number }

export function measure(prompt: string, wrong: { line: string; above: string | null; below: string | null }): Found {
  const code = codeContext(prompt);
  const lines = code.split('\n').map((l) => l.trim()).filter(Boolean);
  const found = lines.some((l, i) => l === wrong.line && ((wrong.above !== null && lines[i - 1] === wrong.above) || (wrong.below !== null && lines[i + 1] === wrong.below)));
  return { found, tokens: estimateTokens(code) };
}

// The job summary (GITHUB_STEP_SUMMARY) of one run, as GitHub-flavoured markdown with HTML: the outcome, failing before
// → after, one row per attempt, the budget spent, what still fails, and the patch in a collapsed block. The same text
// is the body of the pull request that proposes the fix.
//
// Every text the run did not write itself — test IDs, file names, notes quoting test output or a model — goes inside
// <code> or a fence, escaped: in a pull request body a bare "@someone" pings, "Fixes #12" closes an issue on merge,
// and "<img src=…>" loads a picture.
import { countsText, verdictWords } from '../shared/plainWords';
import { isFullReport } from './runFacts';
import type { PatchFacts, RunFacts } from './runFacts';
import type { FixReport } from '../core/run/report';

/** GitHub keeps at most 1 MiB per step's summary and 65,536 characters per pull request body. */
export const DIFF_SHOWN_CHARS = 30_000;
const NOTE_CHARS = 300;
const LISTED_TESTS = 50;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
/** Inline code a renderer shows as typed: no mention, no issue link, no markup, on one line. */
const code = (text: string): string => `<code>${escapeHtml(oneLine(text))}</code>`;
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const number = (n: number) => n.toLocaleString('en-US');

const HEADLINES: Record<string, string> = {
  green: '✅ Greenloop: green',
  escalated: '⚠️ Greenloop: escalated',
  cancelled: '⏹️ Greenloop: cancelled',
  error: '❌ Greenloop: could not run',
};

export function jobSummary(facts: RunFacts, opts: { diffChars?: number } = {}): string {
  const { report, details } = facts;
  const lines: string[] = [];
  const reason = report.reason ? ` (${escapeHtml(report.reason)})` : '';
  lines.push(`## ${HEADLINES[report.outcome] ?? escapeHtml(report.outcome)}${reason}`, '');
  if (report.reasonText) lines.push(`<p>${escapeHtml(report.reasonText)}</p>`, '');
  if (!isFullReport(report)) {
    lines.push(`<p>Report: ${code(facts.reportPath)}</p>`, '');
    return `${lines.join('\n')}\n`;
  }
  const before = countsText(report.baseline.failing.length, report.baseline.diagnostics, report.baseline.loadErrorFiles.length);
  const after = countsText(report.final.failing.length, report.final.diagnostics, report.final.loadErrorFiles.length);
  lines.push(`<p><b>Failing before → after:</b> ${before} → ${after}; the workspace was left at the ${report.final.state} state.</p>`, '');
  if (report.iterations.length) lines.push(attemptsTable(report.iterations), '');
  lines.push(`<p><b>Budget spent:</b> ${budgetLine(facts)}</p>`, '');
  const failing = stillFailing(facts);
  if (failing) lines.push(failing, '');
  lines.push(patchBlock(facts.patch, opts.diffChars ?? DIFF_SHOWN_CHARS), '');
  lines.push(`<p>Report: ${code(facts.reportPath)}${report.runId ? `, run ${code(report.runId)}` : ''}</p>`, '');
  return `${lines.join('\n')}\n`;
}

type Iteration = FixReport['iterations'][number];

function attemptsTable(iterations: Iteration[]): string {
  const rows = iterations.map((it) => {
    const failing = countsText(it.failing.length, 0, it.loadErrorFiles.length);
    const files = it.files.length ? it.files.map(code).join(' ') : '—';
    const verdict = `${verdictWords(it.verdict)}${it.rolledBack ? ' (rolled back)' : ''}`;
    return `<tr><td>${it.n}</td><td>${escapeHtml(verdict)}</td><td>${escapeHtml(failing)}</td><td>${files}</td><td>${code(clip(it.note, NOTE_CHARS))}</td></tr>`;
  });
  return ['<table>', '<tr><th>#</th><th>Verdict</th><th>Failing after</th><th>Files</th><th>Note</th></tr>', ...rows, '</table>'].join('\n');
}

function budgetLine(facts: RunFacts): string {
  const report = facts.report as FixReport;
  const limits = facts.details?.limits;
  const of = (spent: number, limit: number | undefined, unit: string) => (limit ? `${number(spent)} of ${number(limit)} ${unit}` : `${number(spent)} ${unit}`);
  const tokens = report.tokens.prompt + report.tokens.completion;
  const minutes = facts.details?.elapsedMs !== undefined ? facts.details.elapsedMs / 60_000 : report.iterations.reduce((s, it) => s + it.durationMs, 0) / 60_000;
  const calls = `${plural(report.llmCalls, 'model call')}${report.requests !== report.llmCalls ? ` (${plural(report.requests, 'request')})` : ''}`;
  const time = limits ? `${minutes.toFixed(1)} of ${number(limits.maxMinutes)} min` : `${minutes.toFixed(1)} min`;
  return [of(report.iterations.length, limits?.maxIterations, 'attempts'), of(tokens, limits?.maxTokens || undefined, 'tokens'), calls, time].join(' · ');
}

function stillFailing(facts: RunFacts): string | null {
  const report = facts.report as FixReport;
  const ids = report.final.failing;
  const files = report.final.loadErrorFiles;
  const diagnostics = facts.details?.diagnostics ?? [];
  if (!ids.length && !files.length && !diagnostics.length) return null;
  const items = [
    ...ids.map((id) => `<li>${code(id)}</li>`),
    ...files.map((f) => `<li>${code(f)} did not load</li>`),
    ...diagnostics.map((d) => `<li>${code(`${d.file}:${d.line}:${d.column}`)} ${code(`${d.code} ${d.message}`)}</li>`),
  ];
  const shown = items.slice(0, LISTED_TESTS);
  if (items.length > shown.length) shown.push(`<li>…and ${items.length - shown.length} more (see the report)</li>`);
  return `<details><summary>Still failing (${countsText(ids.length, report.final.diagnostics, files.length)})</summary>\n<ul>\n${shown.join('\n')}\n</ul>\n</details>`;
}

function patchBlock(patch: PatchFacts | undefined, diffChars: number): string {
  if (!patch) return '<p>No patch was made.</p>';
  if (patch.none) return `<p>No patch: ${escapeHtml(patch.none)}</p>`;
  if (!patch.files) return '<p>No patch: the workspace was left as it started.</p>';
  const head = `The patch: ${plural(patch.files, 'file')} changed, +${patch.added} −${patch.removed}`;
  const shown = patch.text.length > diffChars ? `${patch.text.slice(0, diffChars)}\n… cut here; the whole patch is ${patch.path}\n` : patch.text;
  return `<details><summary>${escapeHtml(head)}</summary>\n\n${fenced(shown, 'diff')}\n\n</details>`;
}

/** A fence longer than any run of backticks inside, so nothing in the text can close it. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

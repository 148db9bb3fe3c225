// The job summary (GITHUB_STEP_SUMMARY) of one run, as GitHub-flavoured markdown with HTML: the outcome, failing before
// → after, one row per attempt (and, for an attempt that asked for several answers, one row per answer), the budget spent, the tests fixed and those still failing by name, the patch in a
// collapsed block, and the run whose artifacts hold the report. The same text is the body of the pull request that
// proposes the fix, so it names no file on the runner.
//
// Every text the run did not write itself — test IDs, file names, notes quoting test output or a model — goes inside
// <code> or a fence, escaped: in a pull request body a bare "@someone" pings, "Fixes #12" closes an issue on merge,
// and "<img src=…>" loads a picture.
import * as path from 'path';
import { candidateWords, countsText, verdictWords } from '../shared/plainWords';
import { candidatesText } from '../session/progressLine';
import { isFullReport } from './runFacts';
import type { PatchFacts, RunFacts } from './runFacts';
import type { FixReport } from '../core/run/report';

/** GitHub keeps at most 1 MiB per step's summary and 65,536 characters per pull request body. */
export const DIFF_SHOWN_CHARS = 30_000;
const NOTE_CHARS = 300;
/** Named at most, per list (fixed tests, failing tests, files that did not load, diagnostics); the rest are counted. */
export const LISTED = 20;

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
    lines.push(whereReport(facts), '');
    return `${lines.join('\n')}\n`;
  }
  const before = countsText(report.baseline.failing.length, report.baseline.diagnostics, report.baseline.loadErrorFiles.length);
  const after = countsText(report.final.failing.length, report.final.diagnostics, report.final.loadErrorFiles.length);
  lines.push(`<p><b>Failing before → after:</b> ${before} → ${after}; the workspace was left at the ${report.final.state} state.</p>`, '');
  if (report.iterations.length) lines.push(attemptsTable(report.iterations), '');
  for (const it of report.iterations) if (it.candidates?.length) lines.push(candidatesTable(it.n, it.candidates), '');
  lines.push(`<p><b>Budget spent:</b> ${budgetLine(facts)}</p>`, '');
  const fixed = fixedTests(report);
  if (fixed.length) lines.push(`<p><b>Fixed:</b> ${plural(fixed.length, 'test')}</p>`, namedList(fixed.map(code)), '');
  const failing = stillFailing(facts);
  if (failing) lines.push(failing, '');
  lines.push(patchBlock(facts.patch, opts.diffChars ?? DIFF_SHOWN_CHARS), '');
  lines.push(whereReport(facts), '');
  return `${lines.join('\n')}\n`;
}

/** Failing at the start, passing in the state the workspace was left in; a test that went missing is not fixed. */
export function fixedTests(report: FixReport): string[] {
  const last = report.iterations[report.iterations.length - 1];
  const gone = new Set([...report.final.failing, ...(report.final.state === 'last' && last ? last.missing : [])]);
  return report.baseline.failing.filter((id) => !gone.has(id));
}

/** At most LISTED items, then "…and N more". */
function namedList(items: string[]): string {
  const shown = items.slice(0, LISTED);
  if (items.length > shown.length) shown.push(`…and ${items.length - shown.length} more (see the report)`);
  return `<ul>\n${shown.map((i) => `<li>${i}</li>`).join('\n')}\n</ul>`;
}

/** The report and the patch are files of the run: its page and artifacts, never a path on the runner. */
function whereReport(facts: RunFacts): string {
  const files = [path.basename(facts.reportPath), ...(facts.patch?.path ? [path.basename(facts.patch.path)] : [])].map(code).join(' and ');
  const runId = isFullReport(facts.report) && facts.report.runId ? ` Greenloop run ${code(facts.report.runId)}.` : '';
  if (!facts.run) return `<p>Report: ${files}.${runId}</p>`;
  const { url, artifacts, id } = facts.run;
  return `<p>Report: ${files}, files of <a href="${escapeHtml(url)}">run ${escapeHtml(id)}</a> (in <a href="${escapeHtml(artifacts)}">its artifacts</a> when the workflow uploads them).${runId}</p>`;
}

type Iteration = FixReport['iterations'][number];

function attemptsTable(iterations: Iteration[]): string {
  const rows = iterations.map((it) => {
    const failing = countsText(it.failing.length, 0, it.loadErrorFiles.length);
    const files = it.files.length ? it.files.map(code).join(' ') : '—';
    const verdict = `${verdictWords(it.verdict)}${it.rolledBack ? ' (rolled back)' : ''}`;
    // Attempt 0 is the project's own fixers: their commands stand where a model's note would.
    const n = it.actor === 'autofix' ? '0 (fixers, no model)' : String(it.n);
    const note = it.actor === 'autofix' ? `${(it.commands ?? []).map((c) => `${c.command} (${(c.ms / 1000).toFixed(1)} s)`).join('; ')}: ${it.note}` : it.note;
    return `<tr><td>${escapeHtml(n)}</td><td>${escapeHtml(verdict)}</td><td>${escapeHtml(failing)}</td><td>${files}</td><td>${code(clip(note, NOTE_CHARS))}</td></tr>`;
  });
  return ['<table>', '<tr><th>#</th><th>Verdict</th><th>Failing after</th><th>Files</th><th>Note</th></tr>', ...rows, '</table>'].join('\n');
}

/** An attempt's answers (`--candidates N`): which was kept, what each trial said, and why each other lost. */
function candidatesTable(n: number, candidates: NonNullable<Iteration['candidates']>): string {
  const kept = candidates.find((c) => c.chosen);
  const head = `<p><b>Attempt ${n}'s answers:</b> ${escapeHtml(candidatesText(candidates))}${kept ? `; answer ${kept.k} went on to the whole suite` : ''}.</p>`;
  const rows = candidates.map((c) => {
    const failing = c.failing === null ? '—' : `${c.failing}${c.newlyFailing ? ` (${c.newlyFailing} newly)` : ''}`;
    const files = c.files.length ? c.files.map(code).join(' ') : '—';
    const why = c.chosen ? c.note : `${c.note}${c.lostBecause ? `; not kept: ${c.lostBecause}` : ''}`;
    return `<tr><td>${c.k}${c.chosen ? ' (kept)' : ''}</td><td>${escapeHtml(candidateWords(c.verdict))}</td><td>${failing}</td><td>${files}</td><td>${number(c.tokens.prompt + c.tokens.completion)}</td><td>${code(clip(why, NOTE_CHARS))}</td></tr>`;
  });
  return [head, '<table>', '<tr><th>Answer</th><th>Verdict</th><th>Failing tests</th><th>Files</th><th>Tokens</th><th>Note</th></tr>', ...rows, '</table>'].join('\n');
}

function budgetLine(facts: RunFacts): string {
  const report = facts.report as FixReport;
  const limits = facts.details?.limits;
  const of = (spent: number, limit: number | undefined, unit: string) => (limit ? `${number(spent)} of ${number(limit)} ${unit}` : `${number(spent)} ${unit}`);
  const tokens = report.tokens.prompt + report.tokens.completion;
  const minutes = facts.details?.elapsedMs !== undefined ? facts.details.elapsedMs / 60_000 : report.iterations.reduce((s, it) => s + it.durationMs, 0) / 60_000;
  const calls = `${plural(report.llmCalls, 'model call')}${report.requests !== report.llmCalls ? ` (${plural(report.requests, 'request')})` : ''}`;
  const time = limits ? `${minutes.toFixed(1)} of ${number(limits.maxMinutes)} min` : `${minutes.toFixed(1)} min`;
  const attempts = report.iterations.filter((it) => it.actor !== 'autofix').length;
  return [of(attempts, limits?.maxIterations, 'attempts'), of(tokens, limits?.maxTokens || undefined, 'tokens'), calls, time].join(' · ');
}

/** The tests, files and diagnostics still failing, each list named up to LISTED. */
function stillFailing(facts: RunFacts): string | null {
  const report = facts.report as FixReport;
  const ids = report.final.failing;
  const files = report.final.loadErrorFiles;
  const diagnostics = facts.details?.diagnostics ?? [];
  if (!ids.length && !files.length && !diagnostics.length) return null;
  const lists = [
    ids.length ? namedList(ids.map(code)) : '',
    files.length ? namedList(files.map((f) => `${code(f)} did not load`)) : '',
    diagnostics.length ? namedList(diagnostics.map((d) => `${code(`${d.file}:${d.line}:${d.column}`)} ${code(`${d.code} ${d.message}`)}`)) : '',
  ].filter(Boolean);
  return [`<p><b>Still failing:</b> ${countsText(ids.length, report.final.diagnostics, files.length)}</p>`, ...lists].join('\n');
}

function patchBlock(patch: PatchFacts | undefined, diffChars: number): string {
  if (!patch) return '<p>No patch was made.</p>';
  if (patch.none) return `<p>No patch: ${escapeHtml(patch.none)}</p>`;
  if (!patch.files) return '<p>No patch: the workspace was left as it started.</p>';
  const head = `The patch: ${plural(patch.files, 'file')} changed, +${patch.added} −${patch.removed}`;
  const shown = patch.text.length > diffChars ? `${patch.text.slice(0, diffChars)}\n… cut here; the whole patch is ${path.basename(patch.path)} (see below)\n` : patch.text;
  return `<details><summary>${escapeHtml(head)}</summary>\n\n${fenced(shown, 'diff')}\n\n</details>`;
}

/** A fence longer than any run of backticks inside, so nothing in the text can close it. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

// Builds what the model reads each attempt. Everything here informs the model; nothing here lets it decide.
import type { RunState } from '../../ports/runState';
import { elapsedMs, tokensUsed, upcomingLimits } from '../loop/bounds/termination';
import { boundedRead, importedFiles, mentionedPaths, readContextFiles } from './contextFiles';
import { compiledSourceOf } from './compiledSource';
import type { PathPolicy } from '../edits/pathPolicy';
import { CHARS_PER_TOKEN, pruneStackNoise, trimSection } from '../../base/textTrim';
import type { LoadErrorFile } from '../../ports/verifier';

export interface PromptOptions {
  /** Tokens the failure/diagnostic sections may take. */
  failureTokens: number;
  /** Tokens the file contents may take. */
  fileTokens: number;
  isProtected: (rel: string) => boolean;
  allowTestEdits: boolean;
  /** What a file must pass to be shown (the edit policy, tests readable). */
  policy: PathPolicy;
  /** Files git ignores (snapshots do not record them; .env and local settings live there): never shown. */
  unrecorded?: ReadonlySet<string>;
  /** Agent CLIs edit files themselves and need no edit format. */
  editsWorkspace?: boolean;
}

export const DEFAULT_PROMPT_OPTIONS = { failureTokens: 4000, fileTokens: 12000 };

export const EDIT_FORMAT = [
  'Answer with SEARCH/REPLACE blocks. For each change write the file path on its own line, then:',
  '```',
  '<<<<<<< SEARCH',
  'exact existing lines (copy them character for character, enough to be unique in the file)',
  '=======',
  'the lines that replace them',
  '>>>>>>> REPLACE',
  '```',
  'An empty SEARCH section creates a new file. Use several blocks for several changes. Paths are relative to the workspace root.',
  'To see code that is not shown, answer instead with only lines `READ path` or `READ path#name` (at most 3 reads per attempt); an answer with blocks is applied and its READ lines ignored.',
].join('\n');

/** What an agent is told it must leave alone (outside/ undoes it and stops the run). */
const AGENT_BOUNDS = 'Change only files of this project that git does not ignore: do not run git commands that change the repository (add, commit, checkout, stash, config), and do not edit git-ignored files or dependencies, files outside this folder, or the dotfiles in your home folder. Greenloop stops the run on such a change and undoes what it can.';

export function systemPrompt(allowTestEdits: boolean, editsWorkspace = false): string {
  return [
    'You fix a software project so that its test suite and type check pass.',
    'A deterministic verifier runs the tests after every edit you propose; it alone decides when the work is done.',
    allowTestEdits
      ? 'You may edit test files, but only to fix mistakes in them — never weaken an assertion to make it pass.'
      : 'Test files are protected: fix the code under test, never the tests. An edit to a test file is refused.',
    'Make the smallest change that fixes the failures. Do not reformat unrelated code.',
    editsWorkspace ? `Edit the files in the workspace directly; the verifier runs when you exit. ${AGENT_BOUNDS}` : EDIT_FORMAT,
  ].join('\n\n');
}

export function buildPrompt(state: RunState, now: number, opts: PromptOptions): string {
  const n = state.iterations.length + 1;
  const { maxIterations, maxTokens, maxMinutes } = state.limits;
  const left: string[] = [`${maxIterations - n} more attempt${maxIterations - n === 1 ? '' : 's'} after this one`];
  if (maxTokens > 0) left.push(`${Math.max(0, maxTokens - tokensUsed(state)).toLocaleString('en-US')} tokens`);
  if (maxMinutes > 0) left.push(`${Math.max(0, Math.round(maxMinutes - elapsedMs(state, now) / 60_000))} min`);
  const witness = state.current.witness;
  const sections: string[] = [`Attempt ${n} of ${maxIterations} (budget left: ${left.join(', ')}).`];

  const warnings = upcomingLimits(state, now);
  if (warnings.length) sections.push(`## Warning\n${warnings.map((w) => `- ${w}`).join('\n')}`);
  if (state.crossRun && state.iterations.length === 0) sections.push(`## Earlier runs on these failures\n${state.crossRun}`);
  if (state.hints.length) sections.push(`## Hint from the person supervising this loop\n${state.hints.map((h) => `- ${h}`).join('\n')}`);

  const last = state.iterations[state.iterations.length - 1];
  if (last) {
    const lines = [`Verdict of attempt ${last.n}: ${last.verdict} — ${state.feedback || last.note}`];
    if (last.hypothesis) lines.push(`Your explanation then: ${trimSection(last.hypothesis, 600)}`);
    sections.push(`## Previous attempt\n${lines.join('\n')}`);
    if (last.verdict !== 'progress') {
      sections.push('Before any edit, say in at most three sentences why the verifier failed and what you will do differently this time.');
    }
  }

  const failureChars = opts.failureTokens * CHARS_PER_TOKEN;
  if (witness.stoppedEarly) {
    sections.push(`## The test run stopped early\n${witness.stoppedEarly.split('; ')[0]}. Only part of the suite ran: more failures may show once these are fixed, and they are not yours to blame.`);
  }
  if (witness.commandFailure) sections.push(`## The tests passed, but the test command failed\n\`\`\`\n${trimSection(witness.commandFailure, failureChars / 4)}\n\`\`\``);
  if (witness.loadError) {
    sections.push(`## The test suite did not load or run properly\nVerifier output (excerpt):\n\`\`\`\n${trimSection(witness.outputExcerpt, failureChars / 2)}\n\`\`\``);
  }
  const focus = state.config.focus ?? [];
  if (focus.length) {
    const goal = focus.map((id) => `- ${id}${witness.failing.includes(id) ? '' : ' (passes now)'}`).join('\n');
    sections.push(`## Goal of this run\nMake ${focus.length === 1 ? 'this test' : 'these tests'} pass:\n${goal}\nOther failing tests below are context only: this run does not need them fixed. Every test that passes now must keep passing.`);
  }
  const notLoaded = witness.loadErrors ?? [];
  if (notLoaded.length) sections.push(`## Test files that did not load (${notLoaded.length})\nNone of their tests ran; what keeps them from loading comes first.\n${trimSection(notLoadedBody(notLoaded, state.cwd), failureChars / 2)}`);
  if (witness.failures.length) {
    const body = witness.failures
      .map((f) => `- ${f.id}${f.file ? ` (${f.file})` : ''}\n${indent(trimSection(pruneStackNoise(f.message, state.cwd).trim(), 1500))}`)
      .join('\n');
    sections.push(`## Failing tests (${witness.failures.length})\n${trimSection(body, failureChars)}`);
  }
  if (witness.diagnostics.length) {
    const body = witness.diagnostics.map((d) => `- ${d.file}:${d.line}:${d.column} ${d.source ? `${d.source} ` : ''}${d.code ? `${d.code} ` : ''}${d.message}`).join('\n');
    // "Type errors" while tsc is the only checker, as every prompt said before other checkers joined.
    const title = witness.diagnostics.every((d) => (d.source ?? 'tsc') === 'tsc') ? 'Type errors' : 'Checker errors';
    sections.push(`## ${title} (${witness.diagnostics.length})\n${trimSection(body, failureChars / 2)}`);
  }

  const files = readContextFiles(contextCandidates(state, opts.policy), opts.policy, 12_000, opts.fileTokens * CHARS_PER_TOKEN, opts.unrecorded);
  if (files.length) {
    const body = files
      .map((f) => `${f.path}${opts.isProtected(f.path) && !opts.allowTestEdits ? ' (protected test file: read only)' : ''}\n\`\`\`\n${f.content}\n\`\`\``)
      .join('\n\n');
    sections.push(`## Files\n${body}`);
  }
  if (!opts.editsWorkspace) sections.push(`## Edit format\n${EDIT_FORMAT}`);
  return sections.join('\n\n');
}

/** Files the prompt may show: those the failures name, then those earlier attempts edited (names only: each is checked). */
export function contextCandidates(state: RunState, policy: PathPolicy): string[] {
  const touched = state.iterations.flatMap((it) => it.files);
  // A stack trace through compiled output (out/test/x.test.js) stands for its TypeScript source.
  const mentioned = [...new Set(mentionedPaths(state.current.witness, state.cwd).map((rel) => compiledSourceOf(rel, policy, boundedRead) ?? rel))];
  // The code a failing test imports comes right after the test: it is what the model has to change.
  return [...new Set([...mentioned.flatMap((rel) => [rel, ...importedFiles(rel, policy)]), ...touched])];
}

/** One entry per distinct message: a syntax error in a source file shows the same error under a hundred test files. */
function notLoadedBody(notLoaded: readonly LoadErrorFile[], cwd: string): string {
  const byMessage = new Map<string, string[]>();
  for (const e of notLoaded) byMessage.set(e.message, [...(byMessage.get(e.message) ?? []), e.file]);
  return [...byMessage].map(([message, files]) => {
    const names = files.length > 3 ? `${files.slice(0, 3).join(', ')} and ${files.length - 3} more` : files.join(', ');
    return `- ${names}\n${indent(trimSection(pruneStackNoise(message, cwd).trim(), 1500))}`;
  }).join('\n');
}

function indent(text: string): string {
  return text.split('\n').map((l) => `    ${l}`).join('\n');
}

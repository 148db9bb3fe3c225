// Builds what the model reads each attempt. Everything here informs the model; nothing here lets it decide.
import type { RunState } from '../../ports/runState';
import { attemptsUsed, countsAsAttempt, elapsedMs, tokensUsed, upcomingLimits } from '../loop/bounds/termination';
import { codeSection } from './codeSection';
import type { GatheredContext } from './gatherContext';
import { CHARS_PER_TOKEN, pruneStackNoise, trimSection } from '../../base/textTrim';
import type { LoadErrorFile } from '../../ports/verifier';

export interface PromptOptions {
  /** Tokens the failure/diagnostic sections may take. */
  failureTokens: number;
  isProtected: (rel: string) => boolean;
  allowTestEdits: boolean;
  /** The code the model is shown, ranked and budgeted before the prompt is built (gatherContext). */
  context?: GatheredContext;
  /** Agent CLIs edit files themselves and need no edit format. */
  editsWorkspace?: boolean;
}

export const DEFAULT_PROMPT_OPTIONS = { failureTokens: 4000 };

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
  '',
  'Also accepted if the lines fit one place only: other indentation or blank lines (new lines take the file\'s indentation), `// ... existing code ...` for unchanged lines in both SEARCH and REPLACE, a path in the fence\'s info string, a unified diff, copied line numbers. Otherwise refused, quoting the file\'s real lines.',
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
  const n = attemptsUsed(state) + 1;
  const { maxIterations, maxTokens, maxMinutes } = state.limits;
  const left: string[] = [`${maxIterations - n} more attempt${maxIterations - n === 1 ? '' : 's'} after this one`];
  if (maxTokens > 0) left.push(`${Math.max(0, maxTokens - tokensUsed(state)).toLocaleString('en-US')} tokens`);
  if (maxMinutes > 0) left.push(`${Math.max(0, Math.round(maxMinutes - elapsedMs(state, now) / 60_000))} min`);
  const witness = state.current.witness;
  const sections: string[] = [`Attempt ${n} of ${maxIterations} (budget left: ${left.join(', ')}).`];

  const warnings = upcomingLimits(state, now);
  if (warnings.length) sections.push(`## Warning\n${warnings.map((w) => `- ${w}`).join('\n')}`);
  if (state.crossRun && n === 1) sections.push(`## Earlier runs on these failures\n${state.crossRun}`);
  if (state.hints.length) sections.push(`## Hint from the person supervising this loop\n${state.hints.map((h) => `- ${h}`).join('\n')}`);

  const last = state.iterations[state.iterations.length - 1];
  if (last && !countsAsAttempt(last)) {
    // The fixers' change is not the model's to explain: what they did and what is left is all it needs.
    sections.push(`## The project's own fixers ran first (no model)\n${state.feedback || last.note}`);
  } else if (last) {
    const lines = [`Verdict of attempt ${last.n}: ${last.verdict} — ${state.feedback || last.note}`];
    // An agent's attempt cut short for a repeat: the call itself, so the next attempt knows what not to make again.
    if (last.agent?.repeatedCall) lines.push(`Greenloop ended that attempt when you made this call again and your tests then failed the same tests with the same messages as before it: \`${last.agent.repeatedCall}\`. Repeating it changes nothing the tests see; do something else.`);
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

  const code = opts.context ? codeSection(opts.context, (rel) => opts.isProtected(rel) && !opts.allowTestEdits) : null;
  if (code) sections.push(code);
  if (!opts.editsWorkspace) sections.push(`## Edit format\n${EDIT_FORMAT}`);
  return sections.join('\n\n');
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

// Suppression directives are edits to the witness: `// @ts-ignore` above a type error makes the checker stop
// reporting it without the code being right, exactly like editing the test that fails. An edit that adds one is
// refused (unless the person allows suppressions), with the reason in the next prompt. Each directive is looked for
// where its tool reads it: in a comment of the file's language (a Rust attribute: in code), never in a string.
// Guards that take code out of a checker's view (checkerGuards.ts) are found and refused the same way.
import { codeSegments, languageOf } from './codeSegments';
import type { LanguageFamily, Segment } from './codeSegments';
import { findGuards } from './checkerGuards';

export interface AddedSuppression {
  /** 1-based line in the new text. */
  line: number;
  /** The directive as written, with its arguments ("eslint-disable-next-line no-console", "#[allow(dead_code)]"). */
  directive: string;
  /**
   * The checkers whose report it silences, by the `source` their diagnostics carry ("tsc", "eslint", "mypy",
   * "pyright", "clippy", "go vet"…), or a tool Greenloop has no reader for ("flake8/Ruff").
   */
  tools: string[];
  /** A directive that silences findings, or a guard that hides code from the checker (`if not TYPE_CHECKING:`). */
  kind: 'suppression' | 'guard';
  /** A guard that hides nothing in a new file (checkerGuards.FoundGuard). */
  existingFilesOnly?: true;
}

interface Rule {
  tools: string[];
  /** Matched against one comment's text with its markers stripped (or, for `where: 'code'`, a line of code). */
  re: RegExp;
  where: 'comment' | 'code';
  /** Only in a block comment ("/* … *\/"), where the tool reads it. */
  blockOnly?: boolean;
}

// Comment directives are honoured only at the start of a comment (after its markers), as their tools read them.
const JS: Rule[] = [
  { tools: ['tsc'], re: /^@ts-(?:ignore|expect-error|nocheck)\b.*/, where: 'comment' },
  { tools: ['eslint'], re: /^eslint-disable(?:-next-line|-line)?\b.*/, where: 'comment' },
  // `/* eslint no-console: "off" */` reconfigures a rule from inside the file.
  { tools: ['eslint'], re: /^eslint\s+[@\w/-]+\s*:.*/, where: 'comment', blockOnly: true },
  { tools: ['biome'], re: /^biome-ignore(?:-all|-start)?\b.*/, where: 'comment' },
  { tools: ['oxlint'], re: /^oxlint-disable(?:-next-line|-line)?\b.*/, where: 'comment' },
];

const PYTHON: Rule[] = [
  // pyright honours `# type: ignore` too (enableTypeIgnoreComments, on by default).
  { tools: ['mypy', 'pyright'], re: /^type:\s*ignore\b.*/, where: 'comment' },
  { tools: ['mypy'], re: /^mypy:\s*(?:ignore-errors|disable-error-code)\b.*/, where: 'comment' },
  { tools: ['flake8/Ruff'], re: /^(?:(?:ruff|flake8):\s*)?noqa\b.*/i, where: 'comment' },
  { tools: ['pyright'], re: /^pyright:\s*(?:ignore\b|basic\b|report\w+\s*=\s*(?:false|none|information|warning)\b).*/, where: 'comment' },
  { tools: ['pylint'], re: /^pylint:\s*(?:disable(?:-next)?\s*=|skip-file\b).*/, where: 'comment' },
  { tools: ['Pyre'], re: /^pyre-(?:ignore|fixme)\b.*/, where: 'comment' },
  // Both type checkers leave a function so decorated unchecked.
  { tools: ['mypy', 'pyright'], re: /^\s*@\s*(?:typing(?:_extensions)?\s*\.\s*)?no_type_check\b/, where: 'code' },
];

const RUST: Rule[] = [
  { tools: ['rustc', 'clippy'], re: /#!?\[\s*(?:allow|expect)\s*\([^\]]*\)\s*\]/, where: 'code' },
  { tools: ['rustc', 'clippy'], re: /#!?\[\s*cfg_attr\s*\([^\]]*\b(?:allow|expect)\s*\([^\]]*\]/, where: 'code' },
];

const GO: Rule[] = [
  // Machine-readable Go comments have no space after the slashes; "// nolint" is prose to golangci-lint.
  { tools: ['golangci-lint'], re: /^\/\/nolint\b.*/, where: 'comment' },
  { tools: ['staticcheck'], re: /^\/\/lint:(?:file-)?ignore\b.*/, where: 'comment' },
];

const C: Rule[] = [
  { tools: ['clang-tidy'], re: /^NOLINT(?:NEXTLINE|BEGIN)?\b.*/, where: 'comment' },
  { tools: ['cppcheck'], re: /^cppcheck-suppress\b.*/, where: 'comment' },
  // clang-format leaves what follows unformatted, its check included, until `// clang-format on`.
  { tools: ['clang-format'], re: /^clang-format\s+off\b.*/, where: 'comment' },
  { tools: ['the compiler'], re: /#\s*pragma\s+(?:(?:GCC|clang)\s+diagnostic\s+ignored|warning\s*\(\s*disable)\b.*/, where: 'code' },
];

// Java and Kotlin: the annotations javac (-Xlint, -Werror), kotlinc and the linters read, and the linters' comments.
const JAVA: Rule[] = [
  { tools: ['javac'], re: /@\s*(?:java\s*\.\s*lang\s*\.\s*)?SuppressWarnings\b\s*(?:\([^)]*\))?/, where: 'code' },
  { tools: ['kotlinc'], re: /@\s*(?:file\s*:\s*)?(?:kotlin\s*\.\s*)?Suppress\b\s*(?:\([^)]*\))?/, where: 'code' },
  { tools: ['SpotBugs'], re: /@\s*(?:[\w.]+\.)?SuppressFBWarnings\b\s*(?:\([^)]*\))?/, where: 'code' },
  { tools: ['PMD'], re: /^NOPMD\b.*/, where: 'comment' },
  { tools: ['Checkstyle'], re: /^(?:CHECKSTYLE\s*:\s*OFF|CHECKSTYLE\.SUPPRESS)\b.*/i, where: 'comment' },
  { tools: ['IntelliJ'], re: /^noinspection\b.*/, where: 'comment' },
];

const RUBY: Rule[] = [
  // RuboCop's own (`rubocop:todo` is its generated to-do list's disable) and Standard's, which wraps RuboCop.
  { tools: ['rubocop'], re: /^(?:rubocop|standard):(?:disable|todo)\b.*/, where: 'comment' },
];

const PHP: Rule[] = [
  // In a docblock (`/** @phpstan-ignore-next-line */`, ` * @psalm-suppress InvalidReturnType`) or a line comment.
  { tools: ['phpstan'], re: /^@phpstan-ignore(?:-line|-next-line)?\b.*/, where: 'comment' },
  { tools: ['psalm'], re: /^@psalm-suppress\b.*/, where: 'comment' },
  { tools: ['PHP_CodeSniffer'], re: /^(?:phpcs:(?:ignore|disable)\b|@codingStandardsIgnore(?:Line|Start|File)\b).*/, where: 'comment' },
];

const CSHARP: Rule[] = [
  { tools: ['dotnet build'], re: /#\s*pragma\s+warning\s+disable\b.*/, where: 'code' },
  { tools: ['dotnet build'], re: /#\s*nullable\s+(?:disable|restore)\b.*/, where: 'code' },
  { tools: ['dotnet build'], re: /\[\s*(?:assembly\s*:\s*|module\s*:\s*)?(?:global::)?(?:System\.Diagnostics\.CodeAnalysis\.)?(?:SuppressMessage|UnconditionalSuppressMessage)(?:Attribute)?\s*\(.*/, where: 'code' },
  { tools: ['ReSharper'], re: /^ReSharper\s+disable\b.*/, where: 'comment' },
];

const RULES: Record<LanguageFamily, Rule[]> = { js: JS, python: PYTHON, rust: RUST, go: GO, c: C, java: JAVA, ruby: RUBY, php: PHP, csharp: CSHARP };

/** The parts of one comment a directive may start: Python chains comments ("# noqa  # type: ignore"). */
function commentParts(segment: Segment, family: LanguageFamily): string[] {
  const text = segment.text;
  if (family === 'go') return [text.trim()];
  if (family === 'python' || family === 'ruby') return text.split('#').map((p) => p.trim()).filter(Boolean);
  // Strip "//", "/*", "*", "<!--" and closing markers; a JSDoc line inside a block starts with "*".
  const opener = family === 'php' ? /^\s*(?:\/\/+|#+|\/\*+|\*+)?\s*/ : /^\s*(?:\/\/+|\/\*+|<!--|\*+)?\s*/;
  return [text.replace(opener, '').replace(/\s*(?:\*\/|-->)\s*$/, '').trim()];
}

/** Every suppression directive and checker guard in `text`, in order. */
export function findSuppressions(rel: string, text: string): AddedSuppression[] {
  const family = languageOf(rel);
  if (!family) return [];
  const rules = RULES[family];
  const out: AddedSuppression[] = [];
  const seen = new Set<string>();
  const lines = family === 'java' ? text.split(/\r?\n/) : [];
  for (const segment of codeSegments(text, family)) {
    for (const rule of rules) {
      if (rule.where !== segment.kind) continue;
      if (rule.blockOnly && !segment.text.trimStart().startsWith('/*')) continue;
      const parts = segment.kind === 'code' ? [segment.text] : commentParts(segment, family);
      for (const part of parts) {
        const m = rule.re.exec(part);
        if (!m) continue;
        // An annotation's arguments are strings, which code segments leave out: shown as written (`@SuppressWarnings("unchecked")`).
        const asWritten = family === 'java' && segment.kind === 'code' ? rule.re.exec(lines[segment.line - 1] ?? '') : null;
        const directive = (asWritten ?? m)[0].trim().slice(0, 120);
        // `#[allow(clippy::x)]` silences clippy alone; `#[allow(unused)]` rustc's lint, which clippy reports too.
        const tools = family === 'rust' && /\bclippy::/.test(directive) ? ['clippy'] : rule.tools;
        out.push({ line: segment.line, directive, tools, kind: 'suppression' });
        seen.add(`${segment.line}|${directive}`);
      }
    }
  }
  for (const g of findGuards(rel, text, family)) {
    // `#[cfg_attr(clippy, allow(…))]` is a suppression already.
    if (!seen.has(`${g.line}|${g.directive}`)) out.push({ ...g, kind: 'guard' });
  }
  return out.sort((a, b) => a.line - b.line);
}

function keyOf(s: AddedSuppression): string {
  return `${s.kind}|${s.tools.join(',')}|${s.directive.replace(/\s+/g, ' ')}`;
}

/**
 * The suppressions `after` has that `before` did not: counted per directive, so moving one is not adding it and
 * copying an existing `// @ts-ignore` to a second place is. `before` null: a new file, every directive is added.
 */
export function addedSuppressions(rel: string, before: string | null, after: string): AddedSuppression[] {
  const had = new Map<string, number>();
  for (const s of before === null ? [] : findSuppressions(rel, before)) had.set(keyOf(s), (had.get(keyOf(s)) ?? 0) + 1);
  const now = findSuppressions(rel, after).filter((s) => before !== null || !s.existingFilesOnly);
  const beforeLines = new Set((before ?? '').split(/\r?\n/).map((l) => l.trim()));
  const afterLines = after.split(/\r?\n/);
  // Where a directive kept its count, the occurrences on lines that were already there are the old ones.
  const ordered = [...now].sort((a, b) => Number(beforeLines.has(afterLines[b.line - 1]?.trim() ?? '')) - Number(beforeLines.has(afterLines[a.line - 1]?.trim() ?? '')));
  const added: AddedSuppression[] = [];
  for (const s of ordered) {
    const left = had.get(keyOf(s)) ?? 0;
    if (left > 0) had.set(keyOf(s), left - 1);
    else added.push(s);
  }
  return added.sort((a, b) => a.line - b.line);
}

/** The checkers a run has, by the `source` of their findings: what a refusal names. */
export function runningCheckers(witness: { diagnostics: readonly { source?: string }[]; checkers?: Record<string, { sources: readonly string[] }> }): string[] {
  const out = new Set<string>();
  for (const c of Object.values(witness.checkers ?? {})) for (const s of c.sources) out.add(s);
  for (const d of witness.diagnostics) out.add(d.source ?? 'tsc');
  return [...out].sort();
}

/** How people call a checker whose diagnostics carry `source`. */
const SHOWN: Record<string, string> = { tsc: 'TypeScript', eslint: 'ESLint', biome: 'Biome' };

/**
 * The checkers to name: those among `tools` that this run has (`running`, by source), else all of them — so a
 * `# type: ignore` under a pyright check says pyright, and under no Python checker says mypy and pyright.
 */
function named(found: AddedSuppression[], running: readonly string[]): string {
  const names = new Set<string>();
  for (const s of found) {
    const mine = s.tools.filter((t) => running.includes(t));
    for (const t of mine.length ? mine : s.tools) names.add(SHOWN[t] ?? t);
  }
  return [...names].join(', ');
}

function shownList(found: AddedSuppression[]): string {
  const shown = found.slice(0, 3).map((s) => `\`${s.directive}\` (line ${s.line})`).join(', ');
  return found.length > 3 ? `${shown} and ${found.length - 3} more` : shown;
}

/**
 * The sentence for the next prompt when an edit to `rel` adds suppressions or guards, or null when it adds none. It
 * names up to three of them, the checkers they blind (`running`: the sources of the run's checkers), and what to do.
 */
export function suppressionRefusal(rel: string, added: AddedSuppression[], running: readonly string[] = []): string | null {
  if (added.length === 0) return null;
  const suppressions = added.filter((s) => s.kind === 'suppression');
  const guards = added.filter((s) => s.kind === 'guard');
  const out: string[] = [];
  if (suppressions.length) {
    const one = suppressions.length === 1;
    out.push(`${rel}: the edit adds ${one ? 'a suppression' : 'suppressions'} ${shownList(suppressions)}, which would hide what ${named(suppressions, running)} reports instead of fixing it; fix the code so the checker passes without it.`);
  }
  if (guards.length) {
    out.push(`${rel}: the edit adds ${shownList(guards)}, which hides code from ${named(guards, running)} while the tests still run it; fix the code so the checker passes with all of it in view.`);
  }
  return out.join(' ');
}

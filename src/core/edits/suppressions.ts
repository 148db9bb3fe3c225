// Suppression directives are edits to the witness: `// @ts-ignore` above a type error makes the checker stop
// reporting it without the code being right, exactly like editing the test that fails. An edit that adds one is
// refused (unless the person allows suppressions), with the reason in the next prompt. Each directive is looked for
// where its tool reads it: in a comment of the file's language (a Rust attribute: in code), never in a string.
import { codeSegments, languageOf } from './codeSegments';
import type { LanguageFamily, Segment } from './codeSegments';

export interface AddedSuppression {
  /** 1-based line in the new text. */
  line: number;
  /** The directive as written, with its arguments ("eslint-disable-next-line no-console", "#[allow(dead_code)]"). */
  directive: string;
  /** The tool whose report it silences ("TypeScript", "ESLint", "mypy", "rustc/clippy"…). */
  tool: string;
}

interface Rule {
  tool: string;
  /** Matched against one comment's text with its markers stripped (or, for `where: 'code'`, a line of code). */
  re: RegExp;
  where: 'comment' | 'code';
  /** Only in a block comment ("/* … *\/"), where the tool reads it. */
  blockOnly?: boolean;
}

// Comment directives are honoured only at the start of a comment (after its markers), as their tools read them.
const JS: Rule[] = [
  { tool: 'TypeScript', re: /^@ts-(?:ignore|expect-error|nocheck)\b.*/, where: 'comment' },
  { tool: 'ESLint', re: /^eslint-disable(?:-next-line|-line)?\b.*/, where: 'comment' },
  // `/* eslint no-console: "off" */` reconfigures a rule from inside the file.
  { tool: 'ESLint', re: /^eslint\s+[@\w/-]+\s*:.*/, where: 'comment', blockOnly: true },
  { tool: 'Biome', re: /^biome-ignore(?:-all|-start)?\b.*/, where: 'comment' },
  { tool: 'oxlint', re: /^oxlint-disable(?:-next-line|-line)?\b.*/, where: 'comment' },
];

const PYTHON: Rule[] = [
  { tool: 'mypy', re: /^type:\s*ignore\b.*/, where: 'comment' },
  { tool: 'mypy', re: /^mypy:\s*(?:ignore-errors|disable-error-code)\b.*/, where: 'comment' },
  { tool: 'flake8/Ruff', re: /^(?:(?:ruff|flake8):\s*)?noqa\b.*/i, where: 'comment' },
  { tool: 'pyright', re: /^pyright:\s*(?:ignore\b|basic\b|report\w+\s*=\s*(?:false|none|information|warning)\b).*/, where: 'comment' },
  { tool: 'pylint', re: /^pylint:\s*(?:disable(?:-next)?\s*=|skip-file\b).*/, where: 'comment' },
  { tool: 'Pyre', re: /^pyre-(?:ignore|fixme)\b.*/, where: 'comment' },
];

const RUST: Rule[] = [
  { tool: 'rustc/clippy', re: /#!?\[\s*(?:allow|expect)\s*\([^\]]*\)\s*\]/, where: 'code' },
  { tool: 'rustc/clippy', re: /#!?\[\s*cfg_attr\s*\([^\]]*\b(?:allow|expect)\s*\([^\]]*\]/, where: 'code' },
];

const GO: Rule[] = [
  // Machine-readable Go comments have no space after the slashes; "// nolint" is prose to golangci-lint.
  { tool: 'golangci-lint', re: /^\/\/nolint\b.*/, where: 'comment' },
  { tool: 'staticcheck', re: /^\/\/lint:(?:file-)?ignore\b.*/, where: 'comment' },
];

const C: Rule[] = [
  { tool: 'clang-tidy', re: /^NOLINT(?:NEXTLINE|BEGIN)?\b.*/, where: 'comment' },
  { tool: 'cppcheck', re: /^cppcheck-suppress\b.*/, where: 'comment' },
  { tool: 'the compiler', re: /#\s*pragma\s+(?:(?:GCC|clang)\s+diagnostic\s+ignored|warning\s*\(\s*disable)\b.*/, where: 'code' },
];

const RULES: Record<LanguageFamily, Rule[]> = { js: JS, python: PYTHON, rust: RUST, go: GO, c: C };

/** The parts of one comment a directive may start: Python chains comments ("# noqa  # type: ignore"). */
function commentParts(segment: Segment, family: LanguageFamily): string[] {
  const text = segment.text;
  if (family === 'go') return [text.trim()];
  if (family === 'python') return text.split('#').map((p) => p.trim()).filter(Boolean);
  // Strip "//", "/*", "*", "<!--" and closing markers; a JSDoc line inside a block starts with "*".
  return [text.replace(/^\s*(?:\/\/+|\/\*+|<!--|\*+)?\s*/, '').replace(/\s*(?:\*\/|-->)\s*$/, '').trim()];
}

/** Every suppression directive in `text`, in order. */
export function findSuppressions(rel: string, text: string): AddedSuppression[] {
  const family = languageOf(rel);
  if (!family) return [];
  const rules = RULES[family];
  const out: AddedSuppression[] = [];
  for (const segment of codeSegments(text, family)) {
    for (const rule of rules) {
      if (rule.where !== segment.kind) continue;
      if (rule.blockOnly && !segment.text.trimStart().startsWith('/*')) continue;
      const parts = segment.kind === 'code' ? [segment.text] : commentParts(segment, family);
      for (const part of parts) {
        const m = rule.re.exec(part);
        if (m) out.push({ line: segment.line, directive: m[0].trim().slice(0, 120), tool: rule.tool });
      }
    }
  }
  return out;
}

function keyOf(s: AddedSuppression): string {
  return `${s.tool}|${s.directive.replace(/\s+/g, ' ')}`;
}

/**
 * The suppressions `after` has that `before` did not: counted per directive, so moving one is not adding it and
 * copying an existing `// @ts-ignore` to a second place is. `before` null: a new file, every directive is added.
 */
export function addedSuppressions(rel: string, before: string | null, after: string): AddedSuppression[] {
  const had = new Map<string, number>();
  for (const s of before === null ? [] : findSuppressions(rel, before)) had.set(keyOf(s), (had.get(keyOf(s)) ?? 0) + 1);
  const now = findSuppressions(rel, after);
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

/**
 * The sentence for the next prompt when an edit to `rel` adds suppressions, or null when it adds none. It names up
 * to three of them and says what to do instead.
 */
export function suppressionRefusal(rel: string, added: AddedSuppression[]): string | null {
  if (added.length === 0) return null;
  const shown = added.slice(0, 3).map((s) => `\`${s.directive}\` (line ${s.line})`).join(', ');
  const more = added.length > 3 ? ` and ${added.length - 3} more` : '';
  const tools = [...new Set(added.map((s) => s.tool))].join(', ');
  return `${rel}: the edit adds ${added.length === 1 ? 'a suppression' : 'suppressions'} ${shown}${more}, which would hide what ${tools} reports instead of fixing it; fix the code so the checker passes without it.`;
}

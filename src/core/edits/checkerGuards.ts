// Guards that take code out of a checker's view while the tests still run it: `if not TYPE_CHECKING:` (mypy and
// pyright treat the block as unreachable), the `else:` of an `if TYPE_CHECKING:`, a Go build constraint that is false
// where go vet runs (`//go:build ignore`), a Rust `cfg` that names clippy. An edit that adds one is refused like a
// suppression directive. Their look-alikes stay allowed: a plain `if TYPE_CHECKING:` import block (the checker sees
// more, not less), `//go:build linux` on this Linux machine, `#[cfg(test)]` (test code; see docs/loop.md).
import { codeSegments } from './codeSegments';
import type { LanguageFamily, Segment } from './codeSegments';
import { goConstraintHolds, hostBuildContext } from './goConstraints';
import type { GoBuildContext } from './goConstraints';

export interface FoundGuard {
  line: number;
  /** As shown in the refusal ("if not TYPE_CHECKING:", "//go:build ignore", "#[cfg(not(clippy))]"). */
  directive: string;
  /** The checkers whose view it narrows, by the `source` their diagnostics carry. */
  tools: string[];
  /**
   * It hides code only from a file that existed: a new Go file behind a false constraint (a `go run gen.go` generator
   * behind `//go:build ignore`, a file for another OS) holds nothing go vet read before, and code moved into it from
   * the files vet analyses is missing by checkedFiles.movedOutOfReach.
   */
  existingFilesOnly?: true;
}

const PY_CHECKERS = ['mypy', 'pyright'];
// `if not TYPE_CHECKING:`, `if not typing.TYPE_CHECKING:`, `if TYPE_CHECKING is False:`, `elif TYPE_CHECKING == False:`.
const PY_NOT_CHECKING = /^(?:el)?if\s+(?:not\s*\(?\s*(?:\w+\.)*TYPE_CHECKING\b|\(?\s*(?:\w+\.)*TYPE_CHECKING\s*(?:is|==)\s*False\b)/;
const PY_CHECKING = /^if\s+\(?\s*(?:\w+\.)*TYPE_CHECKING\s*\)?\s*:/;
const PY_OTHER_BRANCH = /^(?:else\s*:|elif\b)/;

/** The guards in one file's text, by its language; `go`: the build context constraints are judged in. */
export function findGuards(rel: string, text: string, family: LanguageFamily, go: GoBuildContext = hostBuildContext()): FoundGuard[] {
  if (family === 'python') return pythonGuards(text);
  if (family === 'go') return goGuards(text, go);
  if (family === 'rust') return rustGuards(text);
  return [];
}

/** One Python statement's start: its line, indentation and text (strings emptied, comments left out). */
interface Statement {
  line: number;
  indent: number;
  text: string;
}

/** The lines that start a statement: not the inside of a multi-line string, nor the rest of a bracketed expression. */
function pythonStatements(text: string): Statement[] {
  const raw = text.split(/\r?\n/);
  const out: Statement[] = [];
  let depth = 0;
  let lastLine = 0;
  for (const seg of codeSegments(text, 'python').filter((s: Segment) => s.kind === 'code')) {
    const line = raw[seg.line - 1] ?? '';
    const lead = line.length - line.trimStart().length;
    const codeLead = seg.text.length - seg.text.trimStart().length;
    // A line that began inside a triple-quoted string comes back as `""` at column 0.
    const inString = codeLead !== lead || (seg.text.startsWith('""') && !/^[rbufRBUF]*["']/.test(line.trimStart()));
    if (depth === 0 && !inString && seg.line !== lastLine) out.push({ line: seg.line, indent: lead, text: seg.text.trim() });
    lastLine = seg.line;
    for (const c of seg.text) {
      if (c === '(' || c === '[' || c === '{') depth++;
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    }
  }
  return out;
}

function pythonGuards(text: string): FoundGuard[] {
  const out: FoundGuard[] = [];
  const open: number[] = []; // indentation of each `if TYPE_CHECKING:` still open
  for (const s of pythonStatements(text)) {
    while (open.length && s.indent <= open[open.length - 1]) {
      const at = open.pop()!;
      // The branch the checker never enters: whatever it defines, the checker sees only the TYPE_CHECKING side.
      if (s.indent === at && PY_OTHER_BRANCH.test(s.text)) out.push({ line: s.line, directive: `if TYPE_CHECKING: … ${s.text.startsWith('else') ? 'else:' : 'elif …:'}`, tools: PY_CHECKERS });
    }
    if (PY_NOT_CHECKING.test(s.text)) out.push({ line: s.line, directive: s.text.replace(/:\s*$/, ':').slice(0, 120), tools: PY_CHECKERS });
    else if (PY_CHECKING.test(s.text)) open.push(s.indent);
  }
  return out;
}

/** A build constraint in a Go file's header (before `package`) that is false here: go vet and the build skip the file. */
function goGuards(text: string, ctx: GoBuildContext): FoundGuard[] {
  const out: FoundGuard[] = [];
  for (const seg of codeSegments(text, 'go')) {
    if (seg.kind === 'code') break; // `package` ends the header; a constraint after it is a plain comment
    const c = seg.text.trim();
    const go = /^\/\/go:build\s+(.*)$/.exec(c);
    const plus = /^\/\/\s*\+build\s+(.*)$/.exec(c);
    const hides = go ? !goConstraintHolds(go[1], ctx, 'go:build') : plus ? !goConstraintHolds(plus[1], ctx, '+build') : false;
    if (hides) out.push({ line: seg.line, directive: c.slice(0, 120), tools: ['go vet'], existingFilesOnly: true });
  }
  return out;
}

// `#[cfg(not(clippy))]`, `#![cfg(clippy)]`, `#[cfg_attr(clippy, …)]`, and the old `feature = "cargo-clippy"`.
const RUST_CFG = /#!?\[\s*cfg(?:_attr)?\s*\(/;
const NAMES_CLIPPY = /\bclippy\b(?!::)|"cargo-clippy"/;

function rustGuards(text: string): FoundGuard[] {
  const raw = text.split(/\r?\n/);
  const out: FoundGuard[] = [];
  for (const seg of codeSegments(text, 'rust')) {
    if (seg.kind !== 'code' || !RUST_CFG.test(seg.text)) continue;
    // Strings are emptied in the segment; the old clippy feature is a string, so the line itself is looked at.
    const line = raw[seg.line - 1] ?? '';
    const attr = /#!?\[\s*cfg(?:_attr)?\s*\((?:[^\]"]|"[^"]*")*\]/.exec(line);
    if (attr && NAMES_CLIPPY.test(attr[0])) out.push({ line: seg.line, directive: attr[0].slice(0, 120), tools: ['clippy'] });
  }
  return out;
}

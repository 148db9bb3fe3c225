// RSpec names an example by its full description — its groups' descriptions and its own, joined by spaces — and
// neither its console nor its JSON report says where one group's description ends and the next begins. The spec file
// does: its `describe`/`context` blocks, read here by their indentation (as RuboCop lays them out), give each
// group's description as written, and the example's line (or any line inside it) says which groups enclose it. The
// full description is then split where those descriptions match it (a double-quoted description's `#{…}` matches any
// text, which covers groups made in a loop). When the file cannot be read or its groups do not match, the ID is the
// full description as one title: the same from the console and from JSON, so one test keeps one ID either way.
import * as fs from 'fs';
import * as path from 'path';

/** A line that opens an example group: `RSpec.describe Foo do`, `context "when #{x}" do`, `describe(Foo, '#bar') {`. */
const OPENER = /^(\s*)(?:RSpec\s*\.\s*)?(?:[fx]?describe|[fx]?context|feature|example_group|shared_examples(?:_for)?|shared_context)\b\s*\(?\s*(.*?)\s*\)?\s*(do|\{)(?:\s*\|[^|]*\|)?\s*(?:#.*)?$/;

interface Group {
  start: number;
  end: number;
  /** Its description as a regular expression's source (interpolations match any text); null: not readable. */
  pattern: string | null;
  /** Described by a constant (a Module): RSpec joins a following `#x`, `.x` or `::x` to it without a space. */
  constant: boolean;
  depth: number;
}

export class SpecOutlines {
  /** Each file's groups, with the modification time they were read at (a long-lived reader sees a file change). */
  private readonly files = new Map<string, { mtimeMs: number; groups: Group[] | null }>();

  constructor(private readonly cwd: string | undefined) {}

  /**
   * The title path of an example: its groups' descriptions, then its own. `file` as RSpec prints it (`./spec/a_spec.rb`);
   * `line`: the example's line or any line inside it, when known.
   */
  titles(file: string | undefined, line: number | undefined, fullDescription: string): string[] {
    const groups = file ? this.groupsOf(file) : null;
    if (!groups || groups.length === 0) return [fullDescription];
    const chains = line !== undefined ? [groups.filter((g) => g.start <= line && line <= g.end)] : allChains(groups);
    let best: string[] | null = null;
    for (const chain of chains) {
      const split = splitBy(chain, fullDescription);
      if (split && (!best || split.length > best.length)) best = split;
    }
    return best ?? [fullDescription];
  }

  private groupsOf(file: string): Group[] | null {
    if (!this.cwd) return null;
    const full = path.resolve(this.cwd, file);
    let mtimeMs = -1;
    try {
      mtimeMs = fs.statSync(full).mtimeMs;
    } catch {
      return null;
    }
    const known = this.files.get(full);
    if (known && known.mtimeMs === mtimeMs) return known.groups;
    let groups: Group[] | null = null;
    try {
      groups = readGroups(fs.readFileSync(full, 'utf8'));
    } catch {
      groups = null;
    }
    this.files.set(full, { mtimeMs, groups });
    return groups;
  }
}

/** Every chain from a top-level group down to a group, each group's enclosing ones first. */
function allChains(groups: Group[]): Group[][] {
  return groups.map((g) => groups.filter((o) => o.start <= g.start && g.end <= o.end && o.depth <= g.depth).sort((a, b) => a.depth - b.depth));
}

/** The groups' descriptions and the example's, when the chain's descriptions start the full description. */
function splitBy(chain: Group[], full: string): string[] | null {
  if (chain.some((g) => g.pattern === null)) return null;
  let source = '^';
  chain.forEach((g, i) => {
    const sep = i === 0 ? '' : chain[i - 1].constant ? '(?: |(?=#|::|\\.))' : ' ';
    source += `${sep}(${g.pattern})`;
  });
  const last = chain[chain.length - 1];
  source += `${chain.length === 0 ? '' : last.constant ? '(?: |(?=#|::|\\.))' : ' '}(.+)$`;
  const m = new RegExp(source, 's').exec(full);
  return m ? m.slice(1) : null;
}

/** The example groups of a spec file, with the lines they span (1-based), outermost first. */
export function readGroups(text: string): Group[] {
  const lines = text.split(/\r?\n/);
  const groups: Group[] = [];
  const open: Array<{ group: Group; indent: number; brace: boolean }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const indent = line.length - line.trimStart().length;
    // A line at an open group's indent that closes it: `end` (or `}` for a brace block).
    while (open.length && indent <= open[open.length - 1].indent && line.trim() !== '') {
      const top = open[open.length - 1];
      if (indent === top.indent && (top.brace ? /^\s*\}/.test(line) : /^\s*end\b/.test(line))) {
        top.group.end = i + 1;
        open.pop();
        break;
      }
      if (indent < top.indent) {
        // Indentation that left the group without its `end`: it ends on the line before.
        top.group.end = i;
        open.pop();
        continue;
      }
      break;
    }
    const m = OPENER.exec(line);
    if (!m) continue;
    const { pattern, constant } = describe(m[2]);
    const group: Group = { start: i + 1, end: lines.length, pattern, constant, depth: open.length };
    groups.push(group);
    open.push({ group, indent: m[1].length, brace: m[3] === '{' });
  }
  return groups;
}

/**
 * A group's arguments as RSpec describes them: a constant (`Inflect::Words`), a string, or a constant and a string
 * (`Foo, '#bar'` is "Foo#bar"); metadata after them (`:focus`, `type: :model`) says nothing of the description.
 */
function describe(args: string): { pattern: string | null; constant: boolean } {
  const first = readArg(args);
  if (!first) return { pattern: null, constant: false };
  let rest = args.slice(first.length).trim();
  if (!rest.startsWith(',')) return rest === '' ? { pattern: first.pattern, constant: first.constant } : { pattern: null, constant: false };
  rest = rest.slice(1).trim();
  // A second description is a string; a symbol or `key: value` there is metadata.
  const second = /^['"]/.test(rest) ? readArg(rest) : null;
  if (!second) return { pattern: first.pattern, constant: first.constant };
  const sep = first.constant ? '(?: |(?=#|::|\\.))' : ' ';
  return { pattern: `${first.pattern}${sep}${second.pattern}`, constant: false };
}

function readArg(text: string): { length: number; pattern: string; constant: boolean } | null {
  const constant = /^(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*/.exec(text);
  if (constant) return { length: constant[0].length, pattern: escape(constant[0].replace(/^::/, '')), constant: true };
  const symbol = /^:(\w+[?!]?)/.exec(text);
  if (symbol) return { length: symbol[0].length, pattern: escape(symbol[1]), constant: false };
  const q = text[0];
  if (q !== "'" && q !== '"') return null;
  let pattern = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === q) return { length: i + 1, pattern, constant: false };
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i];
      const escaped = q === "'" ? (next === "'" || next === '\\' ? next : `\\${next}`) : ({ n: '\n', t: '\t' } as Record<string, string>)[next] ?? next;
      pattern += escape(escaped);
    } else if (q === '"' && c === '#' && text[i + 1] === '{') {
      // `#{…}`: any text (up to its closing brace, nested braces counted).
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}' && --depth === 0) break;
      }
      if (j >= text.length) return null;
      pattern += '.*?';
      i = j;
    } else pattern += escape(c);
  }
  return null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

// Splits source text into comments and code, line by line, for the languages whose checkers Greenloop reads, so a
// rule can look for a directive where the language reads it (a comment, or a Rust attribute in code) and not in a
// string that merely contains the same words. A cheap scanner, not a parser: strings, line and block comments are
// tracked; regular-expression literals and nested block comments are not.

export type LanguageFamily = 'js' | 'python' | 'rust' | 'go' | 'c' | 'java' | 'ruby' | 'php' | 'csharp';

interface Syntax {
  line: string[];
  block: [string, string][];
  /** Quotes, longest first; `multi`: the string may run over several lines. */
  strings: { quote: string; multi: boolean }[];
}

const SYNTAX: Record<LanguageFamily, Syntax> = {
  js: {
    line: ['//'],
    block: [['/*', '*/'], ['<!--', '-->']],
    strings: [{ quote: '`', multi: true }, { quote: '"', multi: false }, { quote: "'", multi: false }],
  },
  python: {
    line: ['#'],
    block: [],
    strings: [{ quote: '"""', multi: true }, { quote: "'''", multi: true }, { quote: '"', multi: false }, { quote: "'", multi: false }],
  },
  // No single quote: Rust's lifetimes ('a) would open a string that never closes.
  rust: { line: ['//'], block: [['/*', '*/']], strings: [{ quote: '"', multi: true }] },
  go: { line: ['//'], block: [['/*', '*/']], strings: [{ quote: '`', multi: true }, { quote: '"', multi: false }, { quote: "'", multi: false }] },
  c: { line: ['//'], block: [['/*', '*/']], strings: [{ quote: '"', multi: false }, { quote: "'", multi: false }] },
  // Java and Kotlin: text blocks and raw strings (""") before plain ones.
  java: { line: ['//'], block: [['/*', '*/']], strings: [{ quote: '"""', multi: true }, { quote: '"', multi: false }, { quote: "'", multi: false }] },
  // `=begin`…`=end` documentation blocks; heredocs and %-literals are read as code.
  ruby: { line: ['#'], block: [['=begin', '=end']], strings: [{ quote: '"', multi: false }, { quote: "'", multi: false }] },
  // PHP's strings may run over lines; `#` comments too (`#[Attribute]` reads as one, which no rule below minds).
  php: { line: ['//', '#'], block: [['/*', '*/']], strings: [{ quote: '"', multi: true }, { quote: "'", multi: true }] },
  // C#'s raw strings (""""…"""") span lines; `#pragma` and `[SuppressMessage]` are code.
  csharp: { line: ['//'], block: [['/*', '*/']], strings: [{ quote: '"""', multi: true }, { quote: '"', multi: false }, { quote: "'", multi: false }] },
};

const EXTENSIONS: Record<string, LanguageFamily> = {
  ts: 'js', tsx: 'js', mts: 'js', cts: 'js', js: 'js', jsx: 'js', mjs: 'js', cjs: 'js', vue: 'js', svelte: 'js', astro: 'js',
  css: 'js', scss: 'js', less: 'js', jsonc: 'js', json5: 'js',
  py: 'python', pyi: 'python', pyw: 'python',
  rs: 'rust',
  go: 'go',
  c: 'c', h: 'c', cc: 'c', cpp: 'c', cxx: 'c', hpp: 'c', hh: 'c', hxx: 'c', m: 'c', mm: 'c',
  java: 'java', kt: 'java', kts: 'java',
  rb: 'ruby', rake: 'ruby', gemspec: 'ruby',
  php: 'php', phtml: 'php',
  cs: 'csharp',
};

/** The language a path's extension says, or null for files no checker here reads (Markdown, text, data). */
export function languageOf(rel: string): LanguageFamily | null {
  const name = rel.split('/').pop() ?? rel;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return EXTENSIONS[name.slice(dot + 1).toLowerCase()] ?? null;
}

export interface Segment {
  /** 1-based line of the text. */
  line: number;
  kind: 'comment' | 'code';
  /** A comment with its markers ("// @ts-ignore", "# noqa"); code with its strings' contents left out. */
  text: string;
}

/** The comments and code of `text`, line by line, in order. */
export function codeSegments(text: string, family: LanguageFamily): Segment[] {
  const syntax = SYNTAX[family];
  const out: Segment[] = [];
  let inBlock: string | null = null; // the closing marker
  let inString: string | null = null; // the closing quote of a multi-line string
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    let code = '';
    let comment = '';
    let i = 0;
    while (i < line.length) {
      if (inBlock) {
        const end = line.indexOf(inBlock, i);
        const stop = end < 0 ? line.length : end + inBlock.length;
        comment += line.slice(i, stop);
        i = stop;
        if (end >= 0) inBlock = null;
        continue;
      }
      if (inString) {
        const end = closingQuote(line, i, inString);
        if (end < 0) {
          i = line.length;
        } else {
          i = end + inString.length;
          inString = null;
        }
        code += '""';
        continue;
      }
      const lineMarker = syntax.line.find((m) => line.startsWith(m, i));
      if (lineMarker) {
        comment += line.slice(i);
        break;
      }
      const block = syntax.block.find(([open]) => line.startsWith(open, i));
      if (block) {
        comment += block[0];
        i += block[0].length;
        inBlock = block[1];
        continue;
      }
      const str = syntax.strings.find((s) => line.startsWith(s.quote, i));
      if (str) {
        const end = closingQuote(line, i + str.quote.length, str.quote);
        if (end < 0) {
          // An unclosed single-line string ends with its line (a syntax error, or a quote in prose).
          if (str.multi) inString = str.quote;
          i = line.length;
        } else {
          i = end + str.quote.length;
        }
        code += '""';
        continue;
      }
      code += line[i];
      i++;
    }
    if (comment) out.push({ line: n + 1, kind: 'comment', text: comment });
    if (code.trim()) out.push({ line: n + 1, kind: 'code', text: code });
  }
  return out;
}

/** Index of the closing `quote` at or after `from`, skipping backslash escapes, or -1. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line.startsWith(quote, i)) return i;
  }
  return -1;
}

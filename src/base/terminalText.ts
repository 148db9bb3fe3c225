// Text a model wrote, a test printed or a workspace named is data. On a terminal a control character in it would be
// obeyed, not shown: ESC]52 writes the person's clipboard, ESC[2J clears their screen, \r and \b overwrite what was
// printed, a bidi override reorders a line. Everything such text passes on its way to a terminal goes through here.

/** C0, DEL, C1, and the Unicode characters that break or reorder a line (bidi controls, line/paragraph separators). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * The text with every control character shown as its escape (`\x1b`, `\n`, `\u202e`): one line, nothing a
 * terminal acts on. A line break belongs to whoever prints the line, never to the data inside it.
 */
export function forTerminal(text: string): string {
  return text.replace(CONTROL, escapeControl);
}

/**
 * JSON as JSON.stringify writes it, except that DEL, C1 controls and U+2028/9 (which JSON leaves raw) are \u
 * escapes too: the same value once parsed, and nothing a terminal acts on when the JSON is printed to one.
 */
export function jsonText(value: unknown, indent = 2): string {
  // Outside strings JSON is plain ASCII punctuation, so every such character found is inside a string.
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A complete SGR sequence (colours, bold): the one kind of escape a test's output may keep on a terminal. */
const SGR = /\x1b\[[0-9;:]{0,32}m/y;
/** The start of an SGR sequence or a CRLF cut off at the end of a chunk. */
const PARTIAL_TAIL = /(?:\x1b(?:\[[0-9;:]{0,32})?|\r)$/;

/**
 * A test's live output for a terminal a person watches: colours, line breaks and tabs stay as the runner wrote
 * them; every other control is shown as its escape. Output arrives in chunks, so a colour code or CRLF split between
 * two chunks is held back until the next one completes it.
 */
export class TerminalOutputFilter {
  private pending = '';

  write(chunk: string): string {
    let text = this.pending + chunk;
    const tail = PARTIAL_TAIL.exec(text);
    this.pending = tail ? tail[0] : '';
    if (tail) text = text.slice(0, tail.index);
    return this.filter(text);
  }

  /** Whatever was held back, shown as text: the output it waited for is not coming. */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return this.filter(rest);
  }

  private filter(text: string): string {
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      const kept = c === '\n' || c === '\t' ? c : c === '\r' && text[i + 1] === '\n' ? '\r\n' : c === '\x1b' ? sgrAt(text, i) : null;
      if (kept) {
        out += kept;
        i += kept.length;
        continue;
      }
      const next = nextKeepable(text, i + 1);
      out += forTerminal(text.slice(i, next));
      i = next;
    }
    return out;
  }
}

function sgrAt(text: string, at: number): string | null {
  SGR.lastIndex = at;
  return SGR.exec(text)?.[0] ?? null;
}

/** Index of the next character the filter may keep (\n, \t, \r, ESC) at or after `from`. */
function nextKeepable(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x0a || c === 0x09 || c === 0x0d || c === 0x1b) return j;
  }
  return text.length;
}

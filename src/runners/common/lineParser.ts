// Parsers read a runner's output one line at a time and keep state per test, never the whole text, so an output of
// any size is read whole with memory that follows the tests, not the lines: one entry per test ID
// (reportedTests.ts), a failure's message cut at MAX_MESSAGE_CHARS, a line at MAX_LINE_CHARS.
import type { LineParser, ParseResult } from '../types';

/** Longest failure message kept per test: enough for an assertion diff, never a whole log. */
export const MAX_MESSAGE_CHARS = 16_000;
/** Lines of one failure's message kept while reading (the rest is counted, not stored). */
export const MAX_MESSAGE_LINES = 400;
/** Characters of one failure's message kept while reading, before the parser dedents and cuts it. */
const MAX_MESSAGE_READ_CHARS = 4 * MAX_MESSAGE_CHARS;
/** Longest line a parser is given: longer than any title or message it keeps, so a line without end costs no more. */
export const MAX_LINE_CHARS = 64 * 1024;

/** Reads a whole text through a line parser (the captures in tests, `greenloop parse`). */
export function parseText(parser: LineParser, text: string): ParseResult {
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const line = nl < 0 ? text.slice(start) : text.slice(start, nl);
    parser.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (nl < 0) break;
    start = nl + 1;
  }
  return parser.finish();
}

/**
 * Appends a line to a message being collected, up to MAX_MESSAGE_LINES lines and MAX_MESSAGE_READ_CHARS characters
 * (a few long lines fill it as surely as many short ones); returns whether it was kept.
 */
export function keepLine(lines: string[], line: string): boolean {
  if (lines.length >= MAX_MESSAGE_LINES) return false;
  let chars = 0;
  for (const l of lines) chars += l.length + 1;
  if (chars >= MAX_MESSAGE_READ_CHARS) return false;
  lines.push(chars + line.length > MAX_MESSAGE_READ_CHARS ? line.slice(0, MAX_MESSAGE_READ_CHARS - chars) : line);
  return true;
}

export function capMessage(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}\n… (message cut at ${MAX_MESSAGE_CHARS} characters)` : message;
}

// Parsers read a runner's output one line at a time and keep state per test, never the whole text, so an output of
// any size is read whole with bounded memory (only a failure's message is cut, at MAX_MESSAGE_CHARS).
import type { ParseResult } from '../types';

export interface LineParser {
  /** One line, without its line ending, ANSI-free. */
  push(line: string): void;
  finish(): ParseResult;
}

/** Longest failure message kept per test: enough for an assertion diff, never a whole log. */
export const MAX_MESSAGE_CHARS = 16_000;
/** Lines of one failure's message kept while reading (the rest is counted, not stored). */
export const MAX_MESSAGE_LINES = 400;

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

/** Appends a line to a message being collected, up to MAX_MESSAGE_LINES; returns whether it was kept. */
export function keepLine(lines: string[], line: string): boolean {
  if (lines.length >= MAX_MESSAGE_LINES) return false;
  lines.push(line);
  return true;
}

export function capMessage(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}\n… (message cut at ${MAX_MESSAGE_CHARS} characters)` : message;
}

// The model may ask for code instead of editing: a line `READ path` or `READ path#symbol` (issue 31). Only lines that
// are nothing but the request count, so prose that mentions "READ" is never taken for one.

export interface ReadRequest {
  /** As the model wrote it, decoration peeled: what the note and the record show. */
  asked: string;
  path: string;
  /** A function's, class's or method's name; absent: the file. */
  symbol?: string;
}

// Backticks, quotes or bold around the path are tolerated, as around an edit's path line.
const READ_LINE = /^[\s>*_-]*READ[:\s]\s*[`'"*]*([^\s`'"*#]+)(?:#([^\s`'"*]+))?[`'"*]*\s*$/;

/** The READ requests of an answer, in order, each asked once. */
export function readRequests(answer: string): ReadRequest[] {
  const out: ReadRequest[] = [];
  for (const line of answer.split(/\r?\n/)) {
    if (line.length > 4096) continue;
    const m = READ_LINE.exec(line);
    if (!m) continue;
    const req: ReadRequest = { asked: m[2] ? `${m[1]}#${m[2]}` : m[1], path: m[1], ...(m[2] ? { symbol: m[2] } : {}) };
    if (!out.some((r) => r.asked === req.asked)) out.push(req);
  }
  return out;
}

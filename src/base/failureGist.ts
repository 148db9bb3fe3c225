// What a failing test said, as two runs are compared to tell whether anything changed for it: what failed and how
// (`-1 !== 5`, `expected 2, got 3`) stays; where it happened (stack frames, `file:line:col`) goes, since it moves with
// every line an edit adds above it; temp paths, timings and the workspace's own path go as everywhere (normalize.ts).
import { normalizeMessage } from './normalize';

/** A stack frame line: JavaScript's `at f (file:1:2)`, Python's `File "x.py", line 3, in f`. */
const FRAME = /^\s*(?:at\s.+|File\s+".*",\s+line\s+\d+.*)$/;
/** A position in a file: `calc.js:12:5`, `test_calc.py:40`. */
const POSITION = /(\.\w+):\d+(?::\d+)?\b/g;

export function failureGist(message: string, cwd: string): string {
  const lines = message.split(/\r?\n/).filter((line) => !FRAME.test(line));
  return normalizeMessage(lines.join('\n').replace(POSITION, '$1'), { cwd });
}

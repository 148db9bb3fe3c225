// tsc diagnostics, `--pretty false` ("file(line,col): error TS1234: msg") and pretty ("file:line:col - error
// TS1234: msg" + code frames + "Found N errors" footer). Indented lines right after a header continue its message.
import type { Diagnostic } from '../../ports/verifier';
import type { LineParser, OutputParser } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';

const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;
const FOOTER = /^Found \d+ errors?( in |\.|$)/;
// Errors in the project file itself mean tsc did not check the project as configured.
const CONFIG_FILE = /(^|[\\/])[jt]sconfig[^\\/]*\.json$/;

interface Pending {
  diagnostic: Diagnostic;
  lines: string[];
  isError: boolean;
}

export const tscParser: OutputParser = {
  format: 'tsc',

  detect(text: string): number {
    let score = 0;
    for (const line of text.split(/\r?\n/)) {
      if (PLAIN.test(line) || PRETTY.test(line) || GLOBAL.test(line)) score += 3;
      else if (FOOTER.test(line)) score += 2;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },

  parse: (text) => parseText(tscLines(), text),
  lines: () => tscLines(),
};

function tscLines(): LineParser {
  const diagnostics: Diagnostic[] = [];
  let loadError = false;
  let pending: Pending | null = null;

  const finish = (): void => {
    if (pending && pending.isError) {
      pending.diagnostic.message = capMessage(pending.lines.join('\n').trimEnd());
      diagnostics.push(pending.diagnostic);
    }
    pending = null;
  };

  return {
    push(raw) {
      const line = raw.trimEnd();
      const located = PLAIN.exec(line) ?? PRETTY.exec(line);
      if (located) {
        finish();
        const [, file, l, c, category, code, message] = located;
        const isError = category === 'error';
        if (isError && CONFIG_FILE.test(file)) loadError = true;
        pending = { diagnostic: { file, line: Number(l), column: Number(c), code, message }, lines: [message], isError };
        return;
      }
      const global = GLOBAL.exec(line);
      if (global) {
        finish();
        const isError = global[1] === 'error';
        // An error tied to no file (missing project, unreadable tsconfig, no inputs): tsc never checked the code.
        if (isError) loadError = true;
        pending = { diagnostic: { file: '', line: 0, column: 0, code: global[2], message: global[3] }, lines: [global[3]], isError };
        return;
      }
      if (pending && line !== '' && /^\s/.test(line)) {
        keepLine(pending.lines, line);
        return;
      }
      // A blank line (pretty) or any other line ends the message; code frames and footers are skipped.
      finish();
    },
    finish() {
      finish();
      return { runner: 'tsc', failing: [], tests: null, passedCount: null, failedCount: null, skippedCount: null, loadError, diagnostics };
    },
  };
}

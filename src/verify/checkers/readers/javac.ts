// javac's diagnostics, as Maven's compiler plugin prints them (`[ERROR] /abs/Range.java:[28,29] bad operand types …`,
// `[WARNING] /abs/Box.java:[12,9] [unchecked] unchecked call …`; each error twice: in the COMPILATION ERROR block and
// again under "Failed to execute goal", counted once) and as javac and Gradle print them (`Range.java:28: error: …`,
// `Box.java:12: warning: [unchecked] …`, then the source line and a caret). A lint warning's key (`[unchecked]`,
// `[deprecation]`) is its code. `mvn -B -q test-compile` makes a check: its diagnostics are a witness like tsc's.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

const LEVEL = /^\[(ERROR|WARNING|INFO)\] /;
// Maven: "/abs/File.java:[28,29] message" (after the level tag).
const MAVEN = /^(\S.*?\.java):\[(\d+),(\d+)\] (.*)$/;
// javac and Gradle: "File.java:28: error: message".
const JAVAC = /^(\S.*?\.java):(\d+): (error|warning): (.*)$/;
const LINT = /^\[([\w.-]+)\] (.*)$/;
// maven-checkstyle-plugin's `File.java:[3,8] (imports) UnusedImports: …` is the Checkstyle reader's, not javac's.
const CHECKSTYLE_PLUGIN = /^\S.*?\.java:\[\d+(?:,\d+)?\] \([\w.-]+\) [\w.-]+: /;

export const javacReader: CheckerReader = {
  format: 'javac',
  tool: 'javac',
  silentWhenClean: true,

  detect(text) {
    const lines = sample(text).split('\n').map((l) => l.trimEnd());
    if (lines.some((l) => /^\[(?:ERROR|WARNING)\] /.test(l) && MAVEN.test(l.replace(LEVEL, '')) && !CHECKSTYLE_PLUGIN.test(l.replace(LEVEL, '')))) return 0.9;
    if (lines.some((l) => JAVAC.test(l))) return 0.7;
    return 0;
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    const seen = new Set<string>();
    let maven = false;
    for (const raw of text.split('\n')) {
      // Maven prints colours into a pipe unless run with -B.
      const line = raw.replace(/\u001b\[[0-9;]*m/g, '').trimEnd();
      const level = LEVEL.exec(line);
      if (level) maven = true;
      const body = level ? line.slice(level[0].length) : line;
      const m = level && level[1] !== 'INFO' && !CHECKSTYLE_PLUGIN.test(body) ? MAVEN.exec(body) : null;
      const j = m ? null : JAVAC.exec(body);
      if (!m && !j) continue;
      const severity = m ? (level![1] === 'ERROR' ? 'error' : 'warning') : j![3] === 'error' ? 'error' : 'warning';
      const said = m ? m[4] : j![4];
      const lint = LINT.exec(said);
      const d: CheckerDiagnostic = {
        file: workspacePath(m ? m[1] : j![1], opts.cwd),
        line: Number(m ? m[2] : j![2]),
        column: m ? Number(m[3]) : 0,
        source: opts.source ?? 'javac',
        code: lint ? lint[1] : '',
        message: lint ? lint[2] : said,
        severity,
      };
      // Maven prints each error again under "Failed to execute goal": one finding, not two.
      const key = `${d.file}:${d.line}:${d.column}:${d.severity}:${d.message}`;
      if (m && seen.has(key)) continue;
      seen.add(key);
      all.push(d);
    }
    if (all.length === 0 && maven && /^\[ERROR\] /m.test(text)) {
      const first = text.split('\n').find((l) => l.startsWith('[ERROR] ')) ?? '';
      return { ok: false, reason: `Maven failed without a javac diagnostic ("${first.slice(8, 108)}")` };
    }
    return { ok: true, report: makeReport('javac', { all }, opts) };
  },
};

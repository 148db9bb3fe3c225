// Checkstyle's XML report (`-f xml`: one <file> per file it audited, clean ones too, so the list of checked files is
// whole; each <error> with its severity and the check's class as source) and its plain console (`[WARN]
// /abs/Money.java:20:52: '100' is a magic number. [MagicNumber]` between "Starting audit..." and "Audit done.").
// Either way the code is the module's name as the console prints it (its id when the configuration gives one).
// A file it cannot parse stops it with a CheckstyleException: that is no report.
// maven-checkstyle-plugin's `checkstyle:check` prints its own lines before "You have N Checkstyle violations."
// (CheckstyleViolationCheckMojo.printViolations: `[ERROR] src/main/java/X.java:[3,8] (imports) UnusedImports: Unused
// import - java.util.List.`, the path relative to the module, `[WARNING]` or `[INFO]` by severity). It prints only the
// violations it fails on (its violationSeverity), so each of them is an error.
// PHP CS Fixer's `--format=checkstyle` (its <checkstyle version="PHP CS Fixer …">) names only the files it would change,
// each applied fixer an <error severity="warning" source="PHP-CS-Fixer.fixer">: each is an error its check fails on,
// read as the php-cs-fixer reader reads the same run's JSON.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';
import { fixerMessage } from './phpCsFixer';
import { attr, children, intAttr, xmlRoot } from './xmlReport';

const SEVERITY: Record<string, Severity> = { error: 'error', warning: 'warning', warn: 'warning', info: 'info' };
const LINE = /^\[(ERROR|WARN|INFO)\] (.+?):(\d+):(?:(\d+):)? (.*) \[([\w.-]+)\]$/;
// `file:[line,column] (category) Rule: message` after Maven's level tag; the column only when Checkstyle gave one.
const PLUGIN = /^\[(ERROR|WARNING|WARN|INFO)\] (\S.*?):\[(\d+)(?:,(\d+))?\] \(([\w.-]+)\) ([\w.-]+): (.*)$/;
const PLUGIN_SUMMARY = /You have (\d+) Checkstyle violations?\./;
const CRASH = /^com\.puppycrawl\.tools\.checkstyle\.api\.CheckstyleException: (.*)$/m;

/** `com.puppycrawl.tools.checkstyle.checks.coding.MagicNumberCheck` → `MagicNumber`; a module id stays as it is. */
function moduleName(source: string): string {
  const m = /^(?:[a-z_][\w]*\.)+([A-Z]\w*)$/.exec(source);
  return m ? m[1].replace(/Check$/, '') : source;
}

export const checkstyleReader: CheckerReader = {
  format: 'checkstyle',
  tool: 'Checkstyle',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    if (CRASH.test(head)) return 0;
    if (/<checkstyle(?:\s+version="[^"]*")?\s*>/.test(head)) return 0.95;
    const lines = head.split('\n').map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trimEnd());
    // Ahead of javac's reader, which would read `[ERROR] File.java:[3,8] …` as Maven's compiler lines.
    if (lines.some((l) => PLUGIN.test(l)) || PLUGIN_SUMMARY.test(head)) return 0.95;
    if (lines.includes('Starting audit...') && lines.includes('Audit done.')) return 0.9;
    return lines.some((l) => LINE.test(l)) ? 0.7 : 0;
  },

  read(text, opts) {
    const crash = CRASH.exec(text);
    if (crash) return { ok: false, reason: `Checkstyle stopped ("${crash[1].slice(0, 160)}")` };
    const root = xmlRoot(text, 'checkstyle', ['file', 'error']);
    const all: CheckerDiagnostic[] = [];
    if (root && /^PHP CS Fixer /.test(attr(root, 'version'))) {
      for (const f of children(root, 'file')) {
        const file = workspacePath(attr(f, 'name'), opts.cwd);
        for (const e of children(f, 'error')) {
          const fixer = attr(e, 'source').replace(/^PHP-CS-Fixer\./, '');
          all.push({ file, line: 0, column: 0, source: 'php-cs-fixer', code: fixer, message: fixerMessage(fixer), severity: 'error' });
        }
      }
      return { ok: true, report: makeReport('checkstyle', { all }, opts) };
    }
    if (root) {
      const checked: string[] = [];
      for (const f of children(root, 'file')) {
        const file = workspacePath(attr(f, 'name'), opts.cwd);
        checked.push(file);
        for (const e of children(f, 'error')) {
          const severity = attr(e, 'severity');
          if (severity === 'ignore') continue;
          all.push({
            file,
            line: intAttr(e, 'line'),
            column: intAttr(e, 'column'),
            source: 'checkstyle',
            code: moduleName(attr(e, 'source')),
            message: attr(e, 'message'),
            severity: SEVERITY[severity] ?? 'info',
          });
        }
      }
      return { ok: true, report: makeReport('checkstyle', { all, checked, checkedIsComplete: true, checkedCount: checked.length }, opts) };
    }
    let audited = false;
    for (const raw of text.split('\n')) {
      const line = raw.replace(/\u001b\[[0-9;]*m/g, '').trimEnd();
      if (line === 'Audit done.' || PLUGIN_SUMMARY.test(line)) audited = true;
      const p = PLUGIN.exec(line);
      if (p) {
        all.push({
          file: workspacePath(p[2], opts.cwd), line: Number(p[3]), column: p[4] ? Number(p[4]) : 0,
          source: 'checkstyle', code: p[6], message: p[7], severity: 'error',
        });
        continue;
      }
      const m = LINE.exec(line);
      if (!m) continue;
      all.push({
        file: workspacePath(m[2], opts.cwd),
        line: Number(m[3]),
        column: m[4] ? Number(m[4]) : 0,
        source: 'checkstyle',
        code: m[6],
        message: m[5],
        severity: SEVERITY[m[1].toLowerCase()] ?? 'info',
      });
    }
    if (!audited && all.length === 0) {
      return { ok: false, reason: 'it is neither Checkstyle\'s XML report (-f xml) nor its console between "Starting audit..." and "Audit done.", nor maven-checkstyle-plugin\'s "You have N Checkstyle violations."' };
    }
    return { ok: true, report: makeReport('checkstyle', { all }, opts) };
  },
};

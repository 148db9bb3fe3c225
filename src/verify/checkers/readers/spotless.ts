// Spotless's check through Maven (`mvn spotless:check`) and Gradle (`./gradlew spotlessCheck`, `spotlessJavaCheck`):
// "The following files had format violations:", then each file indented by four spaces (relative to the module or
// project folder), its diff by eight, and "Run 'mvn spotless:apply' to fix these violations." (Gradle: "Run
// './gradlew spotlessApply' to fix all violations.", older "these"). Maven puts "[ERROR] " in front of every line;
// Gradle indents its exception's lines by two. Past 50 lines Spotless lists the rest ("Violations also present in:")
// or only counts them ("Violations also present in 12 other files."). The texts are lib-extra's
// DiffMessageFormatter, plugin-maven's SpotlessCheckMojo and plugin-gradle's SpotlessCheck (diffplug/spotless).
// Each file is one finding; its line is its first hunk's. Its lints ("There were 2 lint error(s), they must be fixed
// or suppressed.", `File.java:L3 step(code) detail`) are findings too, the step as code. A clean run says BUILD
// SUCCESS, or nothing with -q.
import * as fs from 'fs';
import * as path from 'path';
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

export const SPOTLESS_CODE = 'format-violation';
export const SPOTLESS_MESSAGE = 'not formatted as Spotless formats it';

const HEADER = /The following files had format violations:$/;
const RUN_TO_FIX = /^Run '.*' to fix (?:these|all) violations\.$/;
const MORE_LINES = /^\.\.\. \(\d+ more lines that didn't fit\)$/;
const OTHERS = /^Violations also present in (\d+) other files\.$/;
const HUNK = /^@@ -(\d+)/;
const LINT_HEADER = /There were \d+ lint error\(s\), they must be fixed or suppressed\.$/;
const LINT = /^(\S.*?):(?:L(\d+)(?:-\d+)?|LINE_UNDEFINED) (\S+?)\((.*?)\) (.*)$/;
const MAVEN_LINT_FILE = /Unable to format file (.+)$/;
// Where Spotless ran, to read a clean run: Maven's goal header and count, Gradle's task.
const RAN = /spotless-maven-plugin:[\w.-]+:check\b|--- spotless:[\w.-]+:check\b|> Task (?::[\w.-]+)*:spotless\w*Check\b|Spotless\.\w+ is keeping \d+ files clean/;
const FAILED = /^(?:\[ERROR\] |BUILD FAILURE|BUILD FAILED|FAILURE: Build failed)/m;

function clean(line: string): string {
  return line.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r$/, '').trimEnd();
}

function indentOf(s: string): number {
  return s.length - s.trimStart().length;
}

/**
 * The file as the workspace names it. Spotless writes it relative to the Maven module or Gradle project that ran
 * the check: in a multi-module build that is a folder below the workspace (Gradle's `:app:` path, Maven's project
 * name when a folder of that name holds it).
 */
function resolve(file: string, cwd: string, folder: string | null): string {
  const rel = workspacePath(file, cwd);
  if (!folder || path.isAbsolute(rel)) return rel;
  const under = `${folder}/${rel}`;
  if (fs.existsSync(path.resolve(cwd, rel)) && !fs.existsSync(path.resolve(cwd, under))) return rel;
  return fs.existsSync(path.resolve(cwd, under)) ? under : rel;
}

/** The folder of the module or project the block belongs to, from the lines just above its header. */
function folderOf(lines: readonly string[], at: number): string | null {
  for (let i = at; i >= Math.max(0, at - 8); i--) {
    const task = /Execution failed for task '((?::[\w.-]+)*):spotless\w*'/.exec(lines[i]);
    if (task) return task[1] ? task[1].slice(1).replace(/:/g, '/') : null;
    const project = /spotless-maven-plugin:[\w.-]+:\w+ \([^)]*\) on project ([\w.-]+):/.exec(lines[i]);
    if (project) return project[1];
  }
  return null;
}

export const spotlessReader: CheckerReader = {
  format: 'spotless',
  tool: 'Spotless',
  silentWhenClean: true,

  detect(text) {
    const head = sample(text);
    if (/The following files had format violations:/.test(head)) return 0.95;
    if (/lint error\(s\), they must be fixed or suppressed\.|^(?:\[ERROR\] )?Step '[\w.-]+' found problem in '.*':$/m.test(head) && /spotless/i.test(head)) return 0.9;
    // A clean run only shows that Spotless ran: enough when the command names it, never a claim on its own.
    return RAN.test(head) ? 0.1 : 0;
  },

  read(text, opts) {
    const lines = text.split('\n').map(clean);
    const all: CheckerDiagnostic[] = [];
    const violation = (file: string, line: number, message = SPOTLESS_MESSAGE): CheckerDiagnostic =>
      ({ file, line, column: 0, source: 'spotless', code: SPOTLESS_CODE, message, severity: 'error' });
    let blocks = 0;
    for (let i = 0; i < lines.length; i++) {
      const lintHeader = LINT_HEADER.test(lines[i]) || /found problem in '.*':$/.test(lines[i]);
      if (!HEADER.test(lines[i]) && !lintHeader) continue;
      blocks++;
      const maven = lines[i].startsWith('[ERROR]');
      const folder = folderOf(lines, i);
      const body = (l: string): string | null => (maven ? (/^\[ERROR\](?: |$)/.test(l) ? l.replace(/^\[ERROR\] ?/, '') : null) : l);
      if (lintHeader) {
        // Maven's check names the file in full on the line above ("Unable to format file /abs/X.java"); Gradle on each lint.
        const named = MAVEN_LINT_FILE.exec(lines[i - 1] ?? '') ?? MAVEN_LINT_FILE.exec(lines[i]);
        for (let j = i + 1; j < lines.length; j++) {
          const b = body(lines[j]);
          const m = b === null ? null : LINT.exec(b.trim());
          if (!m) break;
          all.push({
            file: resolve(named ? named[1] : m[1], opts.cwd, named ? null : folder), line: m[2] ? Number(m[2]) : 0, column: 0,
            source: 'spotless', code: m[3], message: `(${m[4]}) ${m[5]}`, severity: 'error',
          });
          i = j;
        }
        continue;
      }
      let fileIndent = -1;
      let current: CheckerDiagnostic | null = null;
      for (let j = i + 1; j < lines.length; j++) {
        const b = body(lines[j]);
        if (b === null) break;
        const t = b.trim();
        if (t === '') continue;
        if (RUN_TO_FIX.test(t)) {
          i = j;
          break;
        }
        const others = OTHERS.exec(t);
        if (others) {
          all.push(violation('', 0, `Violations also present in ${others[1]} other files (Spotless does not name them)`));
          continue;
        }
        if (t === 'Violations also present in:') continue;
        const indent = indentOf(b);
        if (fileIndent < 0) fileIndent = indent;
        if (indent > fileIndent) {
          const hunk = HUNK.exec(t);
          if (hunk && current && current.line === 0) current.line = Number(hunk[1]);
          continue;
        }
        if (indent < fileIndent) break;
        if (MORE_LINES.test(t)) continue;
        current = violation(resolve(t, opts.cwd, folder), 0);
        all.push(current);
        i = j;
      }
    }
    if (blocks === 0 && FAILED.test(text)) {
      const first = lines.find((l) => /^\[ERROR\] \S|What went wrong|BUILD FAILED/.test(l)) ?? '';
      return { ok: false, reason: `the build failed without Spotless's "The following files had format violations:" ("${first.slice(0, 140)}")` };
    }
    // Maven says how many files each format kept clean; that is what it checked.
    let checkedCount: number | null = null;
    for (const l of lines) {
      const kept = /Spotless\.\w+ is keeping (\d+) files clean/.exec(l);
      if (kept) checkedCount = (checkedCount ?? 0) + Number(kept[1]);
    }
    return { ok: true, report: makeReport('spotless', { all, checkedCount }, opts) };
  },
};

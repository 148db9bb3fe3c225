// SpotBugs' XML report (`-xml`, `-xml:withMessages`, the Maven and Gradle plugins' spotbugsXml.xml printed to the
// terminal): one <BugInstance> per bug, its pattern as `type` (NP_NULL_ON_SOME_PATH), the bug's own <SourceLine>
// (a direct child) for where it is, else its method's or class's. A source path is relative to one of the project's
// <SrcDir> folders; the one holding the file is taken. Every bug in the report counts: the report holds only those
// above the threshold the project chose, and spotbugs:check fails on each. It names no clean file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';
import type { XmlNode } from './xmlReport';
import { attr, children, intAttr, textOf, xmlRoot } from './xmlReport';

const LISTS = ['BugInstance', 'SourceLine', 'SrcDir', 'Class', 'Method', 'Field'];

/** Where a bug is: its own SourceLine (the primary one when it has several), else its method's, else its class's. */
function sourceLineOf(bug: XmlNode): XmlNode | null {
  const own = children(bug, 'SourceLine');
  const primary = own.find((s) => attr(s, 'primary') === 'true') ?? own.find((s) => attr(s, 'start')) ?? own[0];
  if (primary) return primary;
  for (const holder of ['Method', 'Class', 'Field']) {
    const line = children(bug, holder).flatMap((h) => children(h, 'SourceLine'))[0];
    if (line) return line;
  }
  return null;
}

function fileOf(sourcePath: string, srcDirs: string[], cwd: string): string {
  if (!sourcePath) return '';
  const found = srcDirs.map((d) => path.join(d, sourcePath)).find((p) => fs.existsSync(path.resolve(cwd, p)));
  const chosen = found ?? (srcDirs.length === 1 ? path.join(srcDirs[0], sourcePath) : sourcePath);
  return workspacePath(chosen, cwd);
}

export const spotbugsReader: CheckerReader = {
  format: 'spotbugs',
  tool: 'SpotBugs',
  silentWhenClean: false,

  detect(text) {
    return /<BugCollection[\s>]/.test(sample(text)) ? 0.95 : 0;
  },

  read(text, opts) {
    const root = xmlRoot(text, 'BugCollection', LISTS);
    if (!root) return { ok: false, reason: 'it holds no whole <BugCollection> XML report as SpotBugs writes with -xml' };
    const project = children(root, 'Project')[0];
    const srcDirs = children(project, 'SrcDir').map(textOf).filter(Boolean);
    const all: CheckerDiagnostic[] = [];
    for (const bug of children(root, 'BugInstance')) {
      const where = sourceLineOf(bug);
      const type = attr(bug, 'type');
      const message = textOf(children(bug, 'LongMessage')[0]) || textOf(children(bug, 'ShortMessage')[0]) || `${type} in ${attr(where, 'classname')}`;
      all.push({
        file: fileOf(attr(where, 'sourcepath'), srcDirs, opts.cwd),
        line: intAttr(where, 'start'),
        column: 0,
        source: 'spotbugs',
        code: type,
        message,
        severity: 'error',
      });
    }
    return { ok: true, report: makeReport('spotbugs', { all }, opts) };
  },
};

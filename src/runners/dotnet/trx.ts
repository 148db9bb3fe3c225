// TRX, Visual Studio's test results (`dotnet test --logger trx`): each UnitTestResult's testName (the display name)
// under its TestDefinitions' TestMethod className, read to the same IDs as the console.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { OutputParser, ParseResult } from '../types';
import { Failures, ReportedTests } from '../common/reportedTests';
import { dotnetId } from './ids';

type Node = Record<string, unknown>;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => ['UnitTestResult', 'UnitTest', 'InnerResults'].includes(name),
});

function nodes(v: unknown): Node[] {
  return Array.isArray(v) ? (v as Node[]) : v && typeof v === 'object' ? [v as Node] : [];
}

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as Node)['#text'] === 'string') return (v as Node)['#text'] as string;
  return '';
}

function readTrx(docs: string[]): ParseResult {
  const failing = new Failures();
  const reported = new ReportedTests();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let loadError = docs.length === 0;
  for (const doc of docs) {
    const start = doc.indexOf('<TestRun');
    if (start < 0 || XMLValidator.validate(doc.slice(start)) !== true) {
      loadError = true;
      continue;
    }
    const run = (xml.parse(doc.slice(start)) as Node).TestRun as Node;
    const classes = new Map<string, string>();
    for (const def of nodes((run.TestDefinitions as Node | undefined)?.UnitTest)) {
      const method = def.TestMethod as Node | undefined;
      classes.set(String(def['@_id']), String(method?.['@_className'] ?? ''));
    }
    for (const r of nodes((run.Results as Node | undefined)?.UnitTestResult)) {
      const id = dotnetId(classes.get(String(r['@_testId'])) ?? '', String(r['@_testName'] ?? ''));
      const outcome = String(r['@_outcome'] ?? '');
      if (outcome === 'Passed') {
        passed++;
        reported.add(id, 'passed');
      } else if (outcome === 'NotExecuted' || outcome === 'Inconclusive' || outcome === 'Pending') {
        skipped++;
        reported.add(id, 'skipped');
      } else {
        failed++;
        const info = ((r.Output as Node | undefined)?.ErrorInfo ?? {}) as Node;
        const stack = text(info.StackTrace).replace(/\r/g, '');
        const frame = /\bin (\S.*?):line \d+/.exec(stack.split('\n').reverse().find((l) => / in .*:line \d+/.test(l)) ?? '');
        const message = [text(info.Message).replace(/\r/g, '').trim(), stack.trim() ? `Stack Trace:\n${stack.trim()}` : ''].filter(Boolean).join('\n');
        failing.add(frame ? { id, file: frame[1], message } : { id, message });
        reported.add(id, 'failed');
      }
    }
  }
  return {
    runner: 'trx',
    failing: failing.list(),
    tests: reported.list(),
    passedCount: passed,
    failedCount: failed,
    skippedCount: skipped,
    loadError,
    loadErrors: [],
    diagnostics: [],
  };
}

export const trxParser: OutputParser = {
  format: 'trx',
  detect: (t: string): number => (/<TestRun [^>]*xmlns="http:\/\/microsoft\.com\/schemas\/VisualStudio\/TeamTest\/2010"/.test(t.slice(0, 65536)) ? 0.97 : 0),
  parse: (t: string): ParseResult => readTrx([t]),
  reports: (texts: string[]): ParseResult => readTrx(texts),
};

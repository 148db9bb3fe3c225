// JUnit XML (mocha xunit, jest-junit, vitest, pytest --junitxml, go-junit-report...), read with fast-xml-parser.
//
// Test ID rule, per <testcase classname=C name=N>:
//   1. no C, or N already starts with C (jest-junit's default "{classname} {title}" in both)  -> N
//   2. C looks like a file path (has a slash or a source extension: vitest puts the file there) -> N, file C
//   3. otherwise (mocha xunit: C = suite titles joined with spaces)                          -> "C N"
// so mocha xunit and jest-junit give the title "as written", matching their TAP/default IDs in the contract.
// A failure on the file itself (N = C = a source file, or C "Test suite failed to run") is a load error, ID = N.
// pytest's dotted classnames ("tests.test_calc.TestCalc") get rule 3; use pytest's own parser for its IDs.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FailingTest } from '../../ports/verifier';
import type { OutputParser, ParseResult } from '../types';
import type { JunitDialect } from '../runner';

/** The dialect of the runner that wrote a report, from its first 64 KB; null for the generic rule above. */
export type DialectOf = (head: string) => JunitDialect | null;

type Node = Record<string, unknown>;

const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|py|rs|go|rb|java|kt|cs|php)$/;
// jest-junit's name for a spec file that threw before any test ran.
const SUITE_FAILED_TO_RUN = /^Test suite failed to run$/i;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
  isArray: (name) => ['testsuites', 'testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
});

export const junitParser: OutputParser = junitParserWith(() => null);

/** The JUnit reader, naming the tests of a report some runner recognises as its own by that runner's rule. */
export function junitParserWith(dialectOf: DialectOf): OutputParser {
  return {
    format: 'junit',
    detect: detectJunit,
    parse: (text, opts) => parseJunitFiles([text], dialectOf, opts?.cwd),
    reports: (texts, opts) => parseJunitFiles(texts, dialectOf, opts?.cwd),
  };
}

function detectJunit(text: string): number {
  const head = text.slice(0, 65536);
  if (/<testsuites?[\s>]/.test(head) && /<testcase[\s>/]/.test(text.slice(0, 1048576))) return 0.95;
  if (/<testsuites?[\s>/]/.test(head)) return 0.8;
  return 0;
}

/** Merges several JUnit reports (one per `--junit` match). A report that is missing or unreadable is a load error. */
/** `cwd`: where the run was started, for a dialect that reads the tests' files (RSpec's groups). */
export function parseJunitFiles(xmls: string[], dialectOf: DialectOf = () => null, cwd?: string): ParseResult {
  const result: ParseResult = {
    runner: 'junit',
    failing: [],
    // Stay null unless some report could be read.
    passedCount: null,
    failedCount: null,
    skippedCount: null,
    loadError: xmls.length === 0,
    loadErrors: [],
    diagnostics: [],
    tests: [],
  };
  for (const text of xmls) readReport(text, result, dialectOf, cwd);
  if (result.passedCount === null) result.tests = null;
  return result;
}

function readReport(text: string, into: ParseResult, dialectOf: DialectOf, cwd: string | undefined): void {
  const body = extractXml(text);
  if (body === null || XMLValidator.validate(body) !== true) {
    // A truncated or absent report means the run died before writing it: never green.
    into.loadError = true;
    return;
  }
  let doc: Node;
  try {
    doc = xml.parse(body) as Node;
  } catch {
    into.loadError = true;
    return;
  }
  const roots: Node[] = [];
  for (const group of asNodes(doc.testsuites)) {
    // One push per suite: spreading a report of 100,000+ suites into push() overflows the stack.
    for (const suite of asNodes(group.testsuite)) roots.push(suite);
    // node's JUnit puts a test outside any suite right under <testsuites>.
    if (asNodes(group.testcase).length) roots.push({ testcase: group.testcase });
  }
  for (const suite of asNodes(doc.testsuite)) roots.push(suite);
  if (roots.length === 0) {
    into.loadError = true;
    return;
  }
  into.passedCount ??= 0;
  into.failedCount ??= 0;
  into.skippedCount ??= 0;
  const dialect = dialectOf(body.slice(0, 65536));
  const nodeStyle = !dialect && isNodeReport(roots);
  for (const suite of roots) readSuite(suite, into, nodeStyle ? [] : null, dialect, cwd);
}

/**
 * node --test-reporter=junit nests a <testsuite> per describe and names every testcase's class "test": the suite
 * names are the title path. It also escapes quotes twice (`&amp;quot;`).
 */
function isNodeReport(roots: Node[]): boolean {
  const classes = new Set<string>();
  const walk = (s: Node): void => {
    for (const c of asNodes(s.testcase)) classes.add(attr(c, 'classname'));
    for (const n of asNodes(s.testsuite)) walk(n);
  };
  roots.forEach(walk);
  return classes.size === 1 && classes.has('test');
}

function decodeAgain(s: string): string {
  return s.replace(/&(quot|amp|lt|gt|apos|#39);/g, (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", '#39': "'" })[e] ?? _);
}

/** `path`: the suite titles above (node's nested report), or null where suites are files or reporters' groups. */
function readSuite(suite: Node, into: ParseResult, path: string[] | null, dialect: JunitDialect | null, cwd?: string): void {
  const cases = asNodes(suite.testcase);
  const nested = asNodes(suite.testsuite);
  const name = attr(suite, 'name');
  const here = path && name ? [...path, decodeAgain(name)] : path;
  // A suite reporting errors but holding no test at all could not even load its tests.
  if (cases.length === 0 && nested.length === 0 && Number(attr(suite, 'errors') || 0) > 0) into.loadError = true;
  for (const child of nested) readSuite(child, into, here, dialect, cwd);
  const suiteFile = attr(suite, 'file');
  let passed = 0;
  const idFor = (classname: string, testName: string, fileAttr: string): string =>
    dialect ? dialect.id({ classname, name: testName, suite: name, file: fileAttr, cwd }) : here ? [...here, testName].join(' > ') : idOf(classname, testName);

  for (const test of cases) {
    const name = here ? decodeAgain(attr(test, 'name')) : attr(test, 'name').trim();
    const classname = attr(test, 'classname').trim();
    const problems = [...asItems(test.failure), ...asItems(test.error)];
    if (problems.length === 0) {
      const skipped = test.skipped !== undefined;
      if (skipped) into.skippedCount = (into.skippedCount ?? 0) + 1;
      else passed++;
      into.tests?.push({ id: idFor(classname, name, attr(test, 'file') || suiteFile), status: skipped ? 'skipped' : 'passed' });
      continue;
    }
    // A failure reported on the spec file itself (vitest: name = classname = file; jest-junit's
    // "Test suite failed to run") means the file never loaded: a file that did not load, not a failing test.
    const fileLevel = SUITE_FAILED_TO_RUN.test(classname) || (name === classname && isSourceFile(name));
    const message = problems.map(messageOf).join('\n\n');
    if (fileLevel || SUITE_FAILED_TO_RUN.test(name)) into.loadError = true;
    if (fileLevel) {
      into.loadErrors?.push({ file: name, message });
      continue;
    }
    const broken = dialect?.loadError?.(message);
    if (broken) {
      into.loadError = true;
      into.loadErrors?.push(broken);
    }
    into.failedCount = (into.failedCount ?? 0) + 1;
    const id = idFor(classname, name, attr(test, 'file') || suiteFile);
    const failing: FailingTest = { id, message };
    const fileAttr = attr(test, 'file') || suiteFile;
    const file = (dialect?.file ? dialect.file({ classname, name, suite: attr(suite, 'name'), file: fileAttr }) : undefined) || fileAttr || (isSourceFile(classname) ? classname : '');
    if (file) failing.file = file;
    into.failing.push(failing);
    into.tests?.push({ id, status: 'failed' });
  }
  // Counted from the testcases listed, not the suite attributes, which reporters fill inconsistently
  // (mocha xunit's skipped="1" for two pending tests); jest-junit lists a todo test as a bare, passing testcase.
  into.passedCount = (into.passedCount ?? 0) + passed;
}

/** jest-junit's ancestor separator, when configured (e.g. JEST_JUNIT_ANCESTOR_SEPARATOR=" › "). */
const ANCESTOR_SEPARATOR = ' › ';

function idOf(classname: string, name: string): string {
  // jest-junit with an ancestor separator and the title template {title}: the class is "Suite › inner title".
  if (classname !== name && classname.endsWith(` ${name}`) && !isPath(classname)) {
    return [...classname.slice(0, -(name.length + 1)).split(ANCESTOR_SEPARATOR), name].filter(Boolean).join(' > ');
  }
  // ... and with its default title template both read "Suite › inner title": the suites split, the last one
  // stays joined to the title by a space (only {title} tells them apart).
  if (name === classname && name.includes(ANCESTOR_SEPARATOR)) return name.split(ANCESTOR_SEPARATOR).join(' > ');
  if (!classname || name === classname || name.startsWith(`${classname} `)) return name;
  if (isPath(classname)) return name;
  return `${classname} ${name}`;
}

function isPath(s: string): boolean {
  return /[\\/]/.test(s) || SOURCE_FILE.test(s);
}

function isSourceFile(s: string): boolean {
  return SOURCE_FILE.test(s);
}

function messageOf(problem: unknown): string {
  if (typeof problem === 'string') return problem.trim();
  const node = problem as Node;
  const message = attr(node, 'message').trim();
  const text = typeof node['#text'] === 'string' ? node['#text'].trim() : '';
  if (!text) return message;
  return message && !text.includes(message) ? `${message}\n${text}` : text;
}

/** The report may follow console output on stdout; keep from the first tag to the last closing suite tag. */
function extractXml(text: string): string | null {
  const declaration = text.indexOf('<?xml');
  const suites = text.search(/<testsuites?[\s>/]/);
  if (suites < 0) return null;
  const start = declaration >= 0 && declaration < suites ? declaration : suites;
  const endSuites = text.lastIndexOf('</testsuites>');
  const endSuite = text.lastIndexOf('</testsuite>');
  let end: number;
  if (endSuites >= 0) end = endSuites + '</testsuites>'.length;
  else if (endSuite >= 0) end = endSuite + '</testsuite>'.length;
  else {
    // A lone self-closed <testsuite .../> is a complete (empty) report.
    const selfClosed = /<testsuites?[^>]*\/>/.exec(text.slice(suites));
    if (!selfClosed) return null;
    end = suites + selfClosed.index + selfClosed[0].length;
  }
  return text.slice(start, end);
}

function asNodes(value: unknown): Node[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is Node => typeof v === 'object' && v !== null);
}

function asItems(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function attr(node: Node, name: string): string {
  const value = node[`@_${name}`];
  return typeof value === 'string' ? value : '';
}

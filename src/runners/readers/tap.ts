// TAP 12/13/14: mocha's flat stream ("not ok 3 Suite nested test", IDs as written) and node --test's
// indented subtests (IDs are the subtest path joined " > ", leaves only). YAML blocks give messages.
// Memory follows the tests, not the lines: a top-level point is settled as it is read (one entry per ID), and the
// leaves waiting for their parent (node prints a parent after its children) are kept one per path.
import { CORE_SCHEMA, load } from 'js-yaml';
import type { FailingTest, LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { headAndTail } from '../common/textTools';
import { ReportedTests } from '../common/reportedTests';

const POINT = /^(\s*)(not ok|ok)\b(?:\s+(\d+))?(?:\s*-)?\s?(.*)$/;
const DIRECTIVE = /\s#\s*(skip|todo)\b.*$/i;
// vitest's TAP puts the duration in a comment after the title: "ok 1 - adds # time=1.2ms".
const TIME_COMMENT = /\s#\s*time=\S*\s*$/;
// A title that is a test file: vitest's TAP nests every test under its file, jest-like reporters don't.
const FILE_SEGMENT = /^[^\s>]+\.(?:test|spec)?\.?[cm]?[jt]sx?$/;
const YAML_START = /^(\s*)---\s*$/;
const PLAN = /^1\.\.(\d+)/;
const SUMMARY = /^# (tests|pass|fail|skip|skipped|todo|cancelled) (\d+)\s*$/;
// A test file reported as a failing leaf means its process died before reporting tests (node --test).
const TEST_FILE = /[\\/][^\\/]+\.[cm]?[jt]sx?$/;

/** One leaf being assembled; parents prepend their names as the stream closes them. */
interface Pending {
  path: string[];
  status: TestStatus;
  message: string;
  file?: string;
  preamble?: string;
  /** A test file that died before reporting (node --test): a file that did not load, not a failing test. */
  notLoaded?: boolean;
  /** Reports of this path merged into this one while it waited for its parents (absent: one). */
  reports?: number;
}

interface Frame {
  indent: number;
  /** Leaves under points not read yet, one per path (the same path reported again is the same test). */
  leaves: Map<string, Pending>;
}

export const tapParser: OutputParser = {
  format: 'tap',
  detect: detectTap,
  parse: (text) => parseTap(text),
  lines: (opts) => tapLines(opts),
};

function detectTap(text: string): number {
  const sample = headAndTail(text, 65536);
  if (/^TAP version \d+\s*$/m.test(sample)) return 0.95;
  const points = /^\s*(not ok|ok) \d+\b/m.test(sample);
  const plan = /^\s*1\.\.\d+\s*$/m.test(sample);
  if (points && plan) return 0.85;
  if (points) return 0.4;
  return 0;
}

export function parseTap(text: string): ParseResult {
  return parseText(tapLines(), text);
}

export function tapLines(opts: LineOptions = {}): LineParser {
  const frames: Frame[] = [];
  // Settled leaves: every test once, the first failure of each, the first report of each file that did not load.
  const tests = new ReportedTests(opts.intern);
  const failures = new Map<string, Pending>();
  const notLoaded = new Map<string, Pending>();
  let notLoadedReports = 0;
  const summary = new Map<string, number>();
  let plan: number | null = null;
  let topPoints = 0;
  let loadError = false;
  let sawPoint = false;
  const leafCounts = { pass: 0, fail: 0, skip: 0 };
  let comments: string[] = [];
  // The point just read (its YAML block may follow), and the YAML block being read.
  let lastPoint: { target: Pending | null } | null = null;
  let yaml: { indent: number; block: string[]; target: Pending | null } | null = null;

  const pointLine = (point: RegExpExecArray): Pending | null => {
    sawPoint = true;
    const indent = point[1].length;
    const failingMark = point[2] === 'not ok';
    let description = point[4].replace(TIME_COMMENT, '');
    const directive = DIRECTIVE.exec(description);
    const kind = directive ? directive[1].toLowerCase() : null;
    if (directive) description = description.slice(0, directive.index);
    const name = unescapeTap(description.trim());
    const failing = failingMark && kind !== 'todo';

    const children: Pending[] = [];
    let hasChildren = false;
    while (frames.length > 0 && frames[frames.length - 1].indent > indent) {
      hasChildren = true;
      for (const child of frames.pop()!.leaves.values()) children.push(child);
    }
    if (frames.length === 0 || frames[frames.length - 1].indent < indent) {
      frames.push({ indent, leaves: new Map() });
    }
    const frame = frames[frames.length - 1];
    if (indent === 0) topPoints++;

    let target: Pending | null = null;
    for (const child of children) {
      child.path.unshift(name);
      keep(frame, child);
    }
    if (children.length === 0 || (failing && !children.some((c) => c.status === 'failed'))) {
      // A leaf; or a parent failing with no failing child, which failed on its own (a hook, a crash): the leaf to fix.
      const status: TestStatus = failing ? 'failed' : kind === 'skip' || kind === 'todo' ? 'skipped' : 'passed';
      const pending: Pending = { path: [name], status, message: '' };
      if (failing) target = pending;
      if (failing && indent === 0 && !hasChildren && TEST_FILE.test(name)) {
        loadError = true;
        pending.notLoaded = true;
        // node prints the file's stderr (the SyntaxError) as comments before the point.
        pending.preamble = comments.join('\n');
      }
      keep(frame, pending);
    }
    if (indent === 0) comments = [];
    if (!hasChildren) {
      if (kind === 'skip' || kind === 'todo') leafCounts.skip++;
      else if (failing) leafCounts.fail++;
      else leafCounts.pass++;
    }
    return target;
  };

  /** A leaf at the top level has its whole path: it is settled now. Deeper, it waits for its parents, once per path. */
  const keep = (frame: Frame, p: Pending): void => {
    if (frame.indent === 0) {
      settle(p);
      return;
    }
    const key = p.path.join('\n');
    const was = frame.leaves.get(key);
    if (!was) {
      frame.leaves.set(key, p);
      return;
    }
    // As the verifier reads a test reported twice: failed if either report failed (the first failure), else the last.
    const kept = was.status === 'failed' ? was : p;
    kept.reports = (was.reports ?? 1) + (p.reports ?? 1);
    frame.leaves.set(key, kept);
  };

  const settle = (p: Pending): void => {
    const id = idOf(p.path);
    if (p.notLoaded) {
      notLoadedReports++;
      if (!notLoaded.has(id)) notLoaded.set(id, p);
      return;
    }
    const key = tests.add(id, p.status, p.reports);
    // The YAML block after the point may still fill the message in.
    if (p.status === 'failed' && !failures.has(key)) failures.set(key, p);
  };

  const read = (line: string): void => {
    if (yaml) {
      if (line.trim() === '...' && indentOf(line) <= yaml.indent) {
        if (yaml.target) applyYaml(yaml.target, yaml.block);
        yaml = null;
      } else {
        keepLine(yaml.block, line.slice(Math.min(yaml.indent, indentOf(line))));
      }
      return;
    }
    const after = lastPoint;
    lastPoint = null;
    const start = after ? YAML_START.exec(line) : null;
    if (after && start) {
      yaml = { indent: start[1].length, block: [], target: after.target };
      return;
    }
    const point = POINT.exec(line);
    if (point) {
      lastPoint = { target: pointLine(point) };
      return;
    }
    if (indentOf(line) === 0) {
      const planMatch = PLAN.exec(line);
      if (planMatch) {
        plan = Number(planMatch[1]);
        return;
      }
      const sum = SUMMARY.exec(line);
      if (sum) {
        summary.set(sum[1] === 'skipped' ? 'skip' : sum[1], Number(sum[2]));
        return;
      }
      if (line.startsWith('# ') && !line.startsWith('# Subtest:') && comments.length < 200) {
        comments.push(line.slice(2));
      }
    }
    if (/^\s*Bail out!/.test(line) || /^\s*Exception during run:/.test(line)) loadError = true;
  };

  const unbuffer = unbufferSubtests(read);
  return {
    push: unbuffer.push,
    finish() {
      unbuffer.end();
      if (yaml?.target) applyYaml(yaml.target, yaml.block);
      for (const frame of frames) if (frame.indent !== 0) for (const p of frame.leaves.values()) settle(p);
      // No test at all (and no "1..0" plan): the run died before reporting.
      if (!sawPoint && plan !== 0) loadError = true;
      // TAP requires a plan; a stream with points but none, or with fewer points than planned, was cut short.
      if (sawPoint && (plan === null || topPoints < plan)) loadError = true;

      const messageOf = (p: Pending) => capMessage(p.preamble ? `${p.preamble}\n${p.message}`.trim() : p.message);
      const failing: FailingTest[] = [];
      for (const [id, p] of failures) {
        const test: FailingTest = { id, message: messageOf(p) };
        if (p.file) test.file = p.file;
        failing.push(test);
      }
      const loadErrors: LoadErrorFile[] = [];
      for (const [file, p] of notLoaded) loadErrors.push({ file, message: messageOf(p) });
      const hasSummary = summary.has('pass') || summary.has('fail');
      // node counts a file that did not load as a failing test: it is counted apart.
      const notLoadedCount = notLoadedReports;
      return {
        runner: 'tap',
        failing,
        tests: sawPoint ? tests.list() : null,
        passedCount: hasSummary ? (summary.get('pass') ?? 0) : sawPoint ? leafCounts.pass : null,
        failedCount: hasSummary
          ? Math.max(0, (summary.get('fail') ?? 0) + (summary.get('cancelled') ?? 0) - notLoadedCount)
          : sawPoint ? Math.max(0, leafCounts.fail - notLoadedCount) : null,
        skippedCount: summary.has('skip')
          ? (summary.get('skip') ?? 0) + (summary.get('todo') ?? 0)
          : sawPoint ? leafCounts.skip : null,
        loadError,
        loadErrors,
        diagnostics: [],
      };
    },
  };
}

/**
 * The ID of a title path: a test file that leads it (vitest's TAP nests tests under their file; its flat TAP writes
 * "file > Suite > test" as one title) is not part of the ID, as in every other reporter of the same runner.
 */
function idOf(path: string[]): string {
  const parts = path.length === 1 ? path[0].split(' > ') : path;
  return (parts.length > 1 && FILE_SEGMENT.test(parts[0]) ? parts.slice(1) : parts).join(' > ');
}

/**
 * TAP 14's buffered subtests ("not ok 1 - Suite {", children, "}") put the parent before its children; node's TAP
 * puts it after them. Holding each parent point until its closing brace lets one reader take both.
 */
function unbufferSubtests(next: (line: string) => void): { push: (line: string) => void; end: () => void } {
  const open: Array<{ indent: number; point: string }> = [];
  return {
    push(line) {
      const point = /\{\s*$/.test(line) ? POINT.exec(line) : null;
      if (point && /\s\{\s*$/.test(line)) {
        const indent = point[1].length;
        // One still open where this one starts never got its closing brace: it ends here, as at the end of the stream.
        while (open.length && open[open.length - 1].indent >= indent) next(open.pop()!.point);
        open.push({ indent, point: line.replace(/\s\{\s*$/, '') });
        return;
      }
      const close = open.length ? /^(\s*)\}\s*$/.exec(line) : null;
      if (close && open.length && open[open.length - 1].indent === close[1].length) {
        next(open.pop()!.point);
        return;
      }
      next(line);
    },
    end() {
      // A stream cut inside a subtest: its parents still count.
      while (open.length) next(open.pop()!.point);
    },
  };
}

function applyYaml(target: Pending, block: string[]): void {
  let data: unknown;
  try {
    data = load(block.join('\n'), { schema: CORE_SCHEMA });
  } catch {
    target.message = block.join('\n').trim();
    return;
  }
  if (!data || typeof data !== 'object') {
    target.message = block.join('\n').trim();
    return;
  }
  const fields = data as Record<string, unknown>;
  const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+$/, '') : '');
  let message = text(fields.error) || text(fields.message);
  const name = text(fields.name);
  if (name && message && !message.startsWith(name)) message = `${name}: ${message}`;
  const stack = text(fields.stack);
  // mocha's stack repeats the message; node's is frames only.
  if (stack) message = message && !stack.includes(message) ? `${message}\n${stack}` : stack;
  target.message = message;
  const location = text(fields.location);
  if (location) target.file = location.replace(/:\d+:\d+$/, '');
}

function unescapeTap(s: string): string {
  return s.includes('\\') ? s.replace(/\\([\\#])/g, '$1') : s;
}

// Counts tabs as indent too, unlike textTools' indentOf (spaces only), so it stays TAP's own.
function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && (line[n] === ' ' || line[n] === '\t')) n++;
  return n;
}

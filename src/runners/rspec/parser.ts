// RSpec's console (the default progress format, documentation, any format that prints RSpec's failure summary) and
// its JSON report (`--format json`, one line). IDs are the contract's title path, `group > group > example`: the full
// description split at its groups' boundaries, which the spec file gives (outline.ts). The console names a failing
// example in "Failed examples:" (`rspec ./spec/x_spec.rb:44 # full description`, or `./spec/x_spec.rb[1:2:1]` when
// several examples share the line) and in the numbered "Failures:" blocks, which carry its message; the JSON names
// every example with its file and line. A file that does not load ("An error occurred while loading …", a SyntaxError,
// "N errors occurred outside of examples") is a load error with the file and line where Ruby stopped.
import type { LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { trimBlankLines } from '../common/textTools';
import { isLibraryPath, rubyPath, syntaxErrorIn, workspaceFrame } from '../common/ruby';
import { SpecOutlines } from './outline';

const SUMMARY = /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$/;
const FAILED_EXAMPLE = /^rspec (?:'([^']+)'|(\S+?))(?::(\d+)|\[([\d:]+)\])? # (.*)$/;
const FAILURE_HEADER = /^ {2}(\d+)\) (.*)$/;
const LOAD_HEADER = /^An error occurred (?:while loading (.+?)\.(?: - Did you mean\?)?|in an? .*|while .*)$/;
const JSON_REPORT = /^\s*\{"version":"[^"]*",.*"(?:examples|summary)":/;

export const rspecParser: OutputParser = {
  format: 'rspec',
  detect(text: string): number {
    let score = 0;
    if (JSON_REPORT.test(text.slice(0, 200))) return 0.95;
    for (const line of text.split(/\r?\n/)) {
      if (SUMMARY.test(line)) score += 4;
      else if (/^Failed examples:$/.test(line)) score += 2;
      else if (FAILED_EXAMPLE.test(line)) score += 2;
      else if (/^An error occurred while loading /.test(line)) score += 3;
      else if (/^ {5}Failure\/Error: /.test(line)) score += 1;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(rspecLines(opts), text),
  lines: (opts) => rspecLines(opts),
};

interface Block {
  n: number;
  description: string;
  lines: string[];
}

function rspecLines(opts: LineOptions = {}): LineParser {
  const outlines = new SpecOutlines(opts.cwd);
  let json: string | null = null;
  const blocks: Block[] = [];
  const named: Array<{ file: string; line?: number; description: string }> = [];
  const loadBlocks: Array<{ loading: string | null; lines: string[] }> = [];
  let section: 'none' | 'failures' | 'failed' | 'load' = 'none';
  let summary: RegExpExecArray | null = null;

  return {
    wholeLines: true,
    push(line: string): void {
      if (json === null && JSON_REPORT.test(line)) {
        json = line;
        return;
      }
      const sum = SUMMARY.exec(line);
      if (sum) {
        summary = sum;
        section = 'none';
        return;
      }
      const load = LOAD_HEADER.exec(line);
      if (load) {
        loadBlocks.push({ loading: load[1] ?? null, lines: [] });
        section = 'load';
        return;
      }
      if (line === 'Failures:') {
        section = 'failures';
        return;
      }
      if (line === 'Failed examples:') {
        section = 'failed';
        return;
      }
      if (/^Finished in /.test(line) || /^(?:Randomized with seed|Run options:|No examples found\.)/.test(line)) {
        section = 'none';
        return;
      }
      if (section === 'load') {
        keepLine(loadBlocks[loadBlocks.length - 1].lines, line);
        return;
      }
      if (section === 'failures') {
        const h = FAILURE_HEADER.exec(line);
        if (h && Number(h[1]) === blocks.length + 1) blocks.push({ n: Number(h[1]), description: h[2], lines: [] });
        else if (blocks.length) keepLine(blocks[blocks.length - 1].lines, line);
        return;
      }
      if (section === 'failed') {
        const f = FAILED_EXAMPLE.exec(line);
        if (f) named.push({ file: f[1] ?? f[2], line: f[3] !== undefined ? Number(f[3]) : undefined, description: f[5] });
      }
    },

    finish(): ParseResult {
      // What did not load is printed on stderr beside a JSON report (whose `messages` may repeat it).
      const loadErrors = loadBlocks.map((b) => loadErrorOf(b.loading, b.lines, opts.cwd));
      if (json !== null) {
        const fromJson = readJson(json, outlines, opts, loadErrors);
        if (fromJson) return fromJson;
      }
      const failures = new Failures();
      const listed = new ReportedTests(opts.intern);
      // "Failed examples:" and "Failures:" list the same failures in the same order; a run cut short has only the blocks.
      const count = Math.max(named.length, blocks.length);
      for (let i = 0; i < count; i++) {
        const block = blocks[i];
        const entry = named[i] && (!block || block.description === named[i].description) ? named[i] : undefined;
        const description = entry?.description ?? block.description;
        const file = entry?.file ?? (block ? workspaceFrame(block.lines, opts.cwd, isSpecFile)?.file : undefined);
        // The example's line, else a line inside it: its backtrace's frame in its own file.
        const inside = block && file ? workspaceFrame(block.lines, opts.cwd, (f) => f === rubyPath(file, opts.cwd))?.line : undefined;
        const titles = outlines.titles(file, entry?.line ?? inside, description);
        const id = titles.join(' > ');
        failures.add({ id, ...(file ? { file: rubyPath(file, opts.cwd) } : {}), message: capMessage(block ? blockMessage(block.lines) : '') });
        listed.fail(id);
      }
      const s = summary as RegExpExecArray | null;
      const examples = s ? Number(s[1]) : null;
      const failed = s ? Number(s[2]) : null;
      const pending = s ? Number(s[3] ?? 0) : null;
      const outside = s ? Number(s[4] ?? 0) : 0;
      return {
        runner: 'rspec',
        failing: failures.list(),
        tests: null,
        passedCount: examples !== null ? Math.max(0, examples - failed! - pending!) : null,
        failedCount: failed,
        skippedCount: pending,
        loadError: loadErrors.length > 0 || outside > 0,
        loadErrors: loadErrors.filter((e) => e.file !== ''),
        diagnostics: [],
      };
    },
  };
}

function isSpecFile(file: string): boolean {
  return /_spec\.rb$/.test(file) || /(?:^|\/)spec\//.test(file);
}

/** A failure block's message: the Failure/Error line and what follows, dedented, RSpec's library frames left out. */
function blockMessage(lines: string[]): string {
  const kept = trimBlankLines(lines).filter((l) => !/^\s*# /.test(l) || !isLibraryPath(l.replace(/^\s*#\s*/, '')));
  const indent = Math.min(...kept.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length), 5);
  return kept.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n');
}

/** A file that did not load: where its SyntaxError points, else its first frame in the workspace, else the file named. */
function loadErrorOf(loading: string | null, lines: string[], cwd: string | undefined): LoadErrorFile {
  const body = trimBlankLines(lines).filter((l) => !/^#\s/.test(l) || !isLibraryPath(l.replace(/^#\s*/, '')));
  const message = [`An error occurred while loading ${loading ?? 'the suite'}.`, ...body].join('\n').replace(/\n#\s*\n#\s+Showing full backtrace[\s\S]*$/, '');
  const at = syntaxErrorIn(lines, cwd) ?? workspaceFrame(lines, cwd);
  if (at) return { file: at.file, line: at.line, message: capMessage(message) };
  return { file: loading && /\.rb$/.test(loading) ? rubyPath(loading, cwd) : '', message: capMessage(message) };
}

interface JsonExample {
  description?: string;
  full_description?: string;
  status?: string;
  file_path?: string;
  line_number?: number;
  exception?: { class?: string; message?: string; backtrace?: string[] };
  pending_message?: string | null;
}

interface JsonReport {
  examples?: JsonExample[];
  summary?: { example_count?: number; failure_count?: number; pending_count?: number; errors_outside_of_examples_count?: number };
  messages?: string[];
}

const STATUS: Record<string, TestStatus> = { passed: 'passed', failed: 'failed', pending: 'skipped' };

function readJson(text: string, outlines: SpecOutlines, opts: LineOptions, printed: LoadErrorFile[]): ParseResult | null {
  let report: JsonReport;
  try {
    report = JSON.parse(text.trim()) as JsonReport;
  } catch {
    return null;
  }
  const failures = new Failures();
  const listed = new ReportedTests(opts.intern);
  for (const e of report.examples ?? []) {
    const id = outlines.titles(e.file_path, e.line_number, e.full_description ?? e.description ?? '').join(' > ');
    const status = STATUS[e.status ?? ''] ?? 'skipped';
    listed.add(id, status);
    if (status !== 'failed') continue;
    const ex = e.exception;
    const frames = (ex?.backtrace ?? []).filter((f) => !isLibraryPath(f)).slice(0, 5);
    const message = [ex?.class && ex.message ? `${ex.class}: ${ex.message.trim()}` : ex?.message?.trim() ?? '', ...frames.map((f) => `# ${f}`)].join('\n');
    failures.add({ id, ...(e.file_path ? { file: rubyPath(e.file_path, opts.cwd) } : {}), message: capMessage(message) });
  }
  const loadErrors: LoadErrorFile[] = [...printed];
  for (const m of report.messages ?? []) {
    const lines = m.split('\n');
    const header = lines.map((l) => LOAD_HEADER.exec(l)).find((h) => h);
    if (!header) continue;
    const e = loadErrorOf(header[1] ?? null, lines.slice(lines.findIndex((l) => LOAD_HEADER.test(l)) + 1), opts.cwd);
    if (!loadErrors.some((p) => p.file === e.file && p.line === e.line)) loadErrors.push(e);
  }
  const s = report.summary ?? {};
  const outside = s.errors_outside_of_examples_count ?? 0;
  const examples = s.example_count ?? (report.examples ?? []).length;
  const failed = s.failure_count ?? failures.size;
  const pending = s.pending_count ?? 0;
  return {
    runner: 'rspec',
    failing: failures.list(),
    tests: listed.list(),
    passedCount: Math.max(0, examples - failed - pending),
    failedCount: failed,
    skippedCount: pending,
    loadError: loadErrors.length > 0 || outside > 0,
    loadErrors: loadErrors.filter((e) => e.file !== ''),
    diagnostics: [],
  };
}

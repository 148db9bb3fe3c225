// Picks a parser for runner output (by name or by `auto` detection) and runs it on ANSI-free text.
import stripAnsi from 'strip-ansi';
import type { FormatOption, OutputParser, ParseResult } from './types';
import type { RunnerFormat } from '../ports/verifier';
import { READERS, RUNNERS } from './registry';
import { isTidyList, sharedIn, tidyTestId } from './common/reportedTests';
import { MAX_LINE_CHARS } from './common/lineParser';
import type { LineOptions } from './types';

/** What parseSpool reads an output from (the verifier's OutputSpool): its head and tail, and every line. */
export interface LineSource {
  sample(): string;
  forEachLine(fn: (line: string) => void, maxLineChars?: number): Promise<void>;
}

/** Every runner's parsers, then the readers': loading this module loads them all (every room's code). */
export const PARSERS: readonly OutputParser[] = [...RUNNERS.flatMap((r) => r.code().parsers), ...READERS.map((r) => r.code())];

export const FORMATS: readonly FormatOption[] = ['auto', ...PARSERS.map((p) => p.format)];

export function isFormatOption(value: string): value is FormatOption {
  return (FORMATS as readonly string[]).includes(value);
}

/** The parser of one format (tsc's, for the tsc checker), or undefined. */
export function parserOf(format: string): OutputParser | undefined {
  return PARSERS.find((p) => p.format === format);
}

/** Report files a run wrote (JUnit XML: `--junit GLOB`), read by their format's reader into one result. */
export function parseReports(format: string, texts: string[], opts?: LineOptions): ParseResult {
  const reader = parserOf(format);
  if (!reader?.reports) throw new Error(`${format} is no report format`);
  return tidyResult(reader.reports(texts, opts));
}

/**
 * The parser whose detect() is most confident; null when nothing looks like runner output. `hints` are the runners the
 * test command starts: theirs may also recognise what they print when they die before reporting.
 */
export function detectFormat(cleanText: string, hints: readonly RunnerFormat[] = []): RunnerFormat | null {
  let best: OutputParser | null = null;
  let bestScore = 0;
  for (const parser of PARSERS) {
    const hinted = parser.detectHinted && hints.includes(parser.format) ? parser.detectHinted(cleanText) : 0;
    const score = Math.max(parser.detect(cleanText), hinted);
    if (score > bestScore) {
      best = parser;
      bestScore = score;
    }
  }
  return best ? best.format : null;
}

/** runner is null when `auto` recognised no runner: the result is then empty and says nothing about the tests. */
export type ParsedOutput = Omit<ParseResult, 'runner'> & { runner: RunnerFormat | null };

/**
 * Parses a spooled output line by line with the named parser, or the one its head and tail look like for `auto`:
 * the whole output is read, however large, with bounded memory.
 */
export async function parseSpool(
  spool: LineSource, format: FormatOption = 'auto', hints: readonly RunnerFormat[] = [], opts: LineOptions = {},
): Promise<ParsedOutput> {
  const chosen = format === 'auto' ? detectFormat(spool.sample(), hints) : format;
  const parser = chosen ? PARSERS.find((p) => p.format === chosen) : undefined;
  if (!parser) return emptyResult();
  if (!parser.lines) {
    // A whole-document format (JUnit XML on stdout) is read as one text.
    const lines: string[] = [];
    await spool.forEachLine((l) => lines.push(l));
    return tidyResult(parser.parse(lines.join('\n')));
  }
  const reader = parser.lines(opts);
  await spool.forEachLine((l) => reader.push(l), reader.wholeLines ? Infinity : MAX_LINE_CHARS);
  return tidyResult(reader.finish());
}

function emptyResult(): ParsedOutput {
  return { runner: null, failing: [], tests: null, passedCount: null, failedCount: null, skippedCount: null, loadError: false, loadErrors: [], diagnostics: [] };
}

/**
 * Strips ANSI codes and parses with the named parser, or the detected one for `auto` (see detectFormat's hints);
 * `opts.cwd` and `opts.command` say where the run was started, for a runner that names tests by module (unittest).
 */
export function parseOutput(text: string, format: FormatOption = 'auto', hints: readonly RunnerFormat[] = [], opts: LineOptions = {}): ParsedOutput {
  const clean = stripAnsi(text).replace(/\r\n?/g, '\n');
  const chosen = format === 'auto' ? detectFormat(clean, hints) : format;
  const parser = chosen ? PARSERS.find((p) => p.format === chosen) : undefined;
  if (!parser) return emptyResult();
  return tidyResult(parser.parse(clean, opts));
}

/**
 * One entry per test ID, as the verifier keeps them (the first failure's message; a test listed as both passed
 * and failed failed), with runs of whitespace in titles collapsed and long titles cut (common/reportedTests.ts):
 * `parse` and `verify`, and every reporter of a runner, agree on what the same run says.
 */
export function tidyResult(r: ParseResult): ParseResult {
  // An ID listed more than once (among the failures, or among the tests) is several reports: said, not merged silently.
  const shared = new Map<string, number>();
  const repeated = (id: string, times: Map<string, number>): void => {
    const n = (times.get(id) ?? 1) + 1;
    times.set(id, n);
    shared.set(id, Math.max(shared.get(id) ?? 0, n));
  };
  // A parser's own list (common/reportedTests.ts) holds each ID once already, and counted the repeats.
  const counted = (list: readonly object[]): void => {
    for (const { id, times } of sharedIn(list)) shared.set(id, Math.max(shared.get(id) ?? 0, times));
  };
  let failing = r.failing;
  if (isTidyList(failing)) counted(failing);
  else {
    const failingTimes = new Map<string, number>();
    const firstFailure = new Map<string, (typeof r.failing)[number]>();
    for (const f of r.failing) {
      const id = tidyTestId(f.id);
      if (!firstFailure.has(id)) firstFailure.set(id, id === f.id ? f : { ...f, id });
      else repeated(id, failingTimes);
    }
    failing = [...firstFailure.values()];
  }
  let tests = r.tests;
  if (tests && isTidyList(tests)) counted(tests);
  else if (tests) {
    const testTimes = new Map<string, number>();
    const byId = new Map<string, NonNullable<ParseResult['tests']>[number]>();
    for (const t of tests) {
      const id = tidyTestId(t.id);
      const known = byId.get(id);
      if (known) repeated(id, testTimes);
      if (known?.status !== 'failed') byId.set(id, id === t.id ? t : { ...t, id });
    }
    tests = [...byId.values()];
  }
  // One entry per file that did not load (jest's recap and jest-junit name a file twice): the first message.
  const notLoaded = new Map<string, NonNullable<ParseResult['loadErrors']>[number]>();
  for (const e of r.loadErrors ?? []) if (e.file && !notLoaded.has(e.file)) notLoaded.set(e.file, e);
  const loadErrors = [...notLoaded.values()];
  const sharedIds = [...shared].map(([id, times]) => ({ id, times }));
  return {
    ...r, failing, tests, loadError: r.loadError || loadErrors.length > 0, loadErrors,
    ...(sharedIds.length ? { sharedIds } : {}),
  };
}

/**
 * A runner's console read together with the reports it wrote beside it (`Runner.ownReports`: Surefire's XML). The
 * reports name every test that ran and each invocation of a parameterized one; the console says what the reports
 * cannot (a module that did not compile, a goal that failed). A failure only one of them names is kept; the console's
 * message is the one a person saw. Without a fresh report the console alone speaks.
 */
export function withOwnReports(console: ParsedOutput, reports: ParseResult | null): ParsedOutput {
  if (!reports || reports.tests === null) return console;
  const fromConsole = new Map(console.failing.map((f) => [f.id, f]));
  const failing = reports.failing.map((f) => {
    const c = fromConsole.get(f.id);
    return c ? { ...f, message: c.message || f.message, file: f.file ?? c.file } : f;
  });
  const named = new Set(failing.map((f) => f.id));
  const onlyConsole = console.failing.filter((f) => !named.has(f.id));
  const tests = [...reports.tests, ...onlyConsole.map((f) => ({ id: f.id, status: 'failed' as const }))];
  return tidyResult({
    ...reports,
    runner: console.runner ?? reports.runner,
    failing: [...failing, ...onlyConsole],
    tests,
    failedCount: (reports.failedCount ?? 0) + onlyConsole.length,
    loadError: console.loadError || reports.loadError,
    loadErrors: [...(console.loadErrors ?? []), ...(reports.loadErrors ?? [])],
    stoppedEarly: console.stoppedEarly ?? reports.stoppedEarly,
  }) as ParsedOutput;
}

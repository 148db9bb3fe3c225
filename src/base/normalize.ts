// Removes what changes between two runs of the same code (timings, clocks, pids, temp dirs, seeds,
// addresses, where the workspace lives) so equal states give equal signatures. Conservative on purpose:
// a bare number is never touched, because "expected 3 to equal 4" is exactly what must stay comparable.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import stripAnsi from 'strip-ansi';

export interface NormalizeContext {
  cwd: string;
}

type Rule = [RegExp, string];

const NUM = String.raw`\d+(?:\.\d+)?`;
// Not part of a longer word or number (so "v1.2.3s" and "x10ms" stay); clocks also not after ":" (file:line:col).
const START = String.raw`(?<![\w.])`;
const CLOCK_START = String.raw`(?<![\w.:])`;
const MONTH = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const WEEKDAY = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';

const TIME_RULES: Rule[] = [
  // ISO 8601 with a time part; a bare date may be assertion data.
  [new RegExp(String.raw`\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b`, 'g'), '<time>'],
  // Date.prototype.toString: "Tue Jan 02 2024 10:11:12 GMT+0100 (Central European Standard Time)".
  [new RegExp(String.raw`\b(?:${WEEKDAY}) (?:${MONTH}) \d{1,2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}(?: \([^)\n]*\))?`, 'g'), '<time>'],
  // toUTCString / HTTP dates: "Tue, 02 Jan 2024 10:11:12 GMT".
  [new RegExp(String.raw`\b(?:${WEEKDAY}), \d{2} (?:${MONTH}) \d{4} \d{2}:\d{2}:\d{2} GMT\b`, 'g'), '<time>'],
  // Clock times "10:11:12" / "10:11:12.345", never the tail of file:line:column.
  [new RegExp(String.raw`${CLOCK_START}(?:[01]?\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?![\d:])`, 'g'), '<time>'],
];

const DURATION_RULES: Rule[] = [
  // Keys that only ever hold a duration: "duration_ms: 12.3" (node:test TAP), "# duration_ms 40", "durationMs": 812.
  [new RegExp(String.raw`\b(duration(?:_ms|Ms)["']?\s*[:=]?\s*)${NUM}`, 'g'), '$1<dur>'],
  [new RegExp(String.raw`\b(duration["']?\s*[:=]\s*)${NUM}`, 'g'), '$1<dur>'],
  // Sub-second units are always timings: "(12ms)", "[1.23ms]", "# time=12.3ms", "5 ms", "300µs".
  [new RegExp(String.raw`${START}${NUM}(?:\s?(?:ms|µs|μs|ns)|us)\b`, 'g'), '<dur>'],
  // Minutes and seconds together: "1m 2.3s", "2m30s".
  [new RegExp(String.raw`${START}\d+m\s?${NUM}s\b`, 'g'), '<dur>'],
  // Fractional seconds: "12.3 s", "in 0.45s", "Time: 1.2 s", go's "(0.00s)", cargo's "finished in 0.00s".
  [new RegExp(String.raw`${START}\d+\.\d+\s?(?:s|sec|secs|seconds)\b`, 'g'), '<dur>'],
  // Whole seconds and minutes only where the words around them say it is a duration.
  [new RegExp(String.raw`\b((?:in|took|after|Time:|Duration:?)\s+)\d+\s?(?:s|sec|secs|seconds|min|mins|minutes)\b`, 'g'), '$1<dur>'],
  [/\(\d+\s?(?:s|m)\)/g, '(<dur>)'],
];

const PROCESS_RULES: Rule[] = [
  [/\b(pid\b[\s:=#]*)\d+/gi, '$1<pid>'],
  // Node's warning prefix "(node:12345) ExperimentalWarning".
  [/\((node|deno|bun):\d+\)/g, '($1:<pid>)'],
  // Syslog-style "name[12345]:" prefixes.
  [/^([A-Za-z][\w.-]*)\[\d{2,}\]:/gm, '$1[<pid>]:'],
  // Random seeds printed so a shuffled run can be replayed.
  [/((?:\b(?:randomized with seed|using seed|random seed|seed(?: is)?[:=])|--seed[= ]|--randomly-seed=|-test\.shuffle[= ]|\bsequence\.seed[= ])\s*)(?:0x)?[0-9a-f]*\d[0-9a-f]*\b/gi, '$1<seed>'],
  // Pointers; short hex such as 0xff is more likely data than an address.
  [/\b0x[0-9a-fA-F]{8,}\b/g, '0x<addr>'],
];

const NETWORK_RULES: Rule[] = [
  // Ephemeral ports (5 digits: 32768+ on Linux, 49152+ elsewhere); a fixed port such as 3000 or 8080 is data.
  [/(?<![\w.])(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):\d{5}\b/g, '$1:<port>'],
  [/\b(port\s*[:=]?\s*)\d{5}\b/gi, '$1<port>'],
];

export function normalizeOutput(text: string, ctx: NormalizeContext): string {
  let out = stripAnsi(text).replace(/\r\n?/g, '\n');
  out = replacePaths(out, ctx.cwd);
  for (const [re, to] of [...TIME_RULES, ...DURATION_RULES, ...PROCESS_RULES, ...NETWORK_RULES]) out = out.replace(re, to);
  return out;
}

/** The output as a person reads it: colours and carriage returns gone, every duration, path and port as printed. */
export function readableOutput(text: string): string {
  return stripAnsi(text).replace(/\r\n?/g, '\n');
}

/**
 * A test ID as the loop compares it: a title holding a temp path, a duration, a port or a pid would otherwise be
 * a new test on every run (contract: failing IDs are compared after the output's normalization).
 */
export function normalizeTestId(id: string, ctx: NormalizeContext): string {
  return normalizeMessage(id, ctx);
}

/** Same rules with whitespace collapsed: the identity of a failure message. */
export function normalizeMessage(msg: string, ctx: NormalizeContext): string {
  return normalizeOutput(msg, ctx).replace(/\s+/g, ' ').trim();
}

export function signatureOf(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}

function replacePaths(text: string, cwd: string): string {
  let out = text;
  for (const re of pathPatterns(cwd)) out = out.replace(re, '<workspace>');
  for (const re of tempPatterns()) out = out.replace(re, '<tmp>');
  // macOS per-user temp: /var/folders/xy/abc123/T/<random>.
  out = out.replace(/(?:\/private)?\/var\/folders\/[^/\s]+\/[^/\s]+\/[A-Z](?:\/[^/\s:'"`()[\]<>,;]+)?/g, '<tmp>');
  return out;
}

// Built once per workspace, not per text: a suite of 20,000 tests normalizes 20,000 IDs per run, and a realpath
// call and four new RegExps for each took a second of blocked event loop.
const workspacePatterns = new Map<string, RegExp[]>();
let tempRootPatterns: RegExp[] | null = null;

function pathPatterns(cwd: string): RegExp[] {
  let patterns = workspacePatterns.get(cwd);
  if (!patterns) {
    // Not followed by a name character, so "/w/app" does not eat the start of "/w/app-old".
    patterns = variants(cwd).map((p) => new RegExp(`${escapeRe(p)}(?![\\w-]|\\.\\w)`, 'g'));
    if (workspacePatterns.size >= 16) workspacePatterns.clear();
    workspacePatterns.set(cwd, patterns);
  }
  return patterns;
}

/** The first component under a temp root is the random part ("mocha-abc123"); what follows it is kept. */
function tempPatterns(): RegExp[] {
  tempRootPatterns ??= unique([...variants(os.tmpdir()), '/tmp', '/var/tmp', '/private/tmp'])
    .map((root) => new RegExp(String.raw`(?<![\w.\-])${escapeRe(root)}[/\\][^/\\\s:'"\`()\[\]<>,;]+`, 'g'));
  return tempRootPatterns;
}

/** The path as given, its realpath, and forward-slash spellings (Windows tools print both), longest first. */
function variants(p: string): string[] {
  const all = [p];
  try {
    all.push(fs.realpathSync(p));
  } catch {
    // Missing folder: the given spelling is all there is.
  }
  for (const v of [...all]) if (v.includes('\\')) all.push(v.replace(/\\/g, '/'));
  // Replacing "/" or "C:\" would mangle every path in the output.
  return unique(all.map((v) => v.replace(/[/\\]+$/, '')))
    .filter((v) => v.length > 3)
    .sort((a, b) => b.length - a.length);
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

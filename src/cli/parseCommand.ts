// `greenloop parse [--format F] [FILE|-]`: one runner output in, one witness-shaped JSON object out.
import * as fs from 'fs';
import { parseArgs } from 'util';
import { FORMATS, isFormatOption, parseSpool } from '../runners/parseOutput';
import type { FormatOption } from '../runners/types';
import type { CheckerFormat } from '../verify/checkers/checkerTypes';
import { OutputSpool } from '../verify/outputSpool';
import { EXIT, UsageError } from '../flags/usageError';
import { PARSE_FLAGS } from '../flags/commandFlags';
import { jsonText } from '../base/terminalText';
import { formatNames, parseCheckerFormat, readerFor } from '../verify/checkers/readerChoice';

export async function parseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: PARSE_FLAGS, allowPositionals: true, strict: true });
  const format = values.format ?? PARSE_FLAGS.format.defaultValue;
  const checker = isFormatOption(format) ? null : parseCheckerFormat(format);
  if (!isFormatOption(format) && !checker) throw new UsageError(`Unknown format "${format}"; use one of ${FORMATS.join(', ')} (test runners) or ${formatNames()} (checkers).`);
  if (positionals.length > 1) throw new UsageError('Give at most one file to parse (or - for standard input).');
  const file = positionals[0] ?? '-';
  if (checker) return parseChecker(checker, file, Boolean(values.warnings));
  // Read as a stream through the same spool the verifier uses: a log of any size, bounded memory.
  const spool = new OutputSpool();
  try {
    const input = file === '-' ? process.stdin : openOrThrow(file);
    input.setEncoding('utf8');
    for await (const chunk of input) spool.write(chunk as string);
    const result = await parseSpool(spool, format as FormatOption);
    // The files that did not load by name, as `verify` lists them (their messages are in loadErrors).
    process.stdout.write(`${jsonText({ ...result, loadErrorFiles: (result.loadErrors ?? []).map((e) => e.file) })}\n`);
  } finally {
    spool.dispose();
  }
  return EXIT.ok;
}

/**
 * A checker's report (ESLint's JSON, mypy's text…) read as `--check` reads it: the diagnostics that count in the
 * contract's shape plus `source`, and what it says it checked. An output the reader does not know is one sentence.
 */
async function parseChecker(format: CheckerFormat, file: string, warnings: boolean): Promise<number> {
  const input = file === '-' ? process.stdin : openOrThrow(file);
  input.setEncoding('utf8');
  let text = '';
  for await (const chunk of input) text += chunk as string;
  const reader = readerFor(format);
  const read = reader.read(text, { cwd: process.cwd(), warnings });
  if (!read.ok) throw new UsageError(`This is not ${reader.tool}'s output: ${read.reason}.`);
  const { report } = read;
  const shape = (d: (typeof report.all)[number]) => ({ file: d.file, line: d.line, column: d.column, code: d.code, message: d.message, source: d.source, severity: d.severity });
  process.stdout.write(`${jsonText({
    format,
    diagnostics: report.diagnostics.map(shape),
    others: report.all.filter((d) => !report.diagnostics.includes(d)).map(shape),
    checked: report.checked,
    checkedIsComplete: report.checkedIsComplete,
    checkedCount: report.checkedCount,
  })}\n`);
  return EXIT.ok;
}

function openOrThrow(file: string): fs.ReadStream {
  // Opened here so a missing file is one sentence, not a stream error later.
  readableOrThrow(file);
  return fs.createReadStream(file);
}

function readableOrThrow(file: string): void {
  try {
    const fd = fs.openSync(file, 'r');
    const isDir = fs.fstatSync(fd).isDirectory();
    fs.closeSync(fd);
    if (isDir) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`Cannot read ${file}: ${why}.`);
  }
}

// `greenloop parse [--format F] [FILE|-]`: one runner output in, one witness-shaped JSON object out.
import * as fs from 'fs';
import { parseArgs } from 'util';
import { FORMATS, isFormatOption, parseSpool } from '../verify/parseOutput';
import { OutputSpool } from '../verify/outputSpool';
import { EXIT, UsageError } from '../flags/usageError';
import { jsonText } from '../base/terminalText';

export async function parseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { format: { type: 'string', default: 'auto' } }, allowPositionals: true, strict: true });
  const format = values.format ?? 'auto';
  if (!isFormatOption(format)) throw new UsageError(`Unknown format "${format}"; use one of ${FORMATS.join(', ')}.`);
  if (positionals.length > 1) throw new UsageError('Give at most one file to parse (or - for standard input).');
  const file = positionals[0] ?? '-';
  // Read as a stream through the same spool the verifier uses: a log of any size, bounded memory.
  const spool = new OutputSpool();
  try {
    const input = file === '-' ? process.stdin : openOrThrow(file);
    input.setEncoding('utf8');
    for await (const chunk of input) spool.write(chunk as string);
    const result = await parseSpool(spool, format);
    // The files that did not load by name, as `verify` lists them (their messages are in loadErrors).
    process.stdout.write(`${jsonText({ ...result, loadErrorFiles: (result.loadErrors ?? []).map((e) => e.file) })}\n`);
  } finally {
    spool.dispose();
  }
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

// `greenloop parse [--format F] [FILE|-]`: one runner output in, one witness-shaped JSON object out.
import * as fs from 'fs';
import { parseArgs } from 'util';
import { FORMATS, isFormatOption, parseOutput } from '../verify/parseOutput';
import { EXIT, UsageError } from './usageError';

export async function parseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { format: { type: 'string', default: 'auto' } }, allowPositionals: true, strict: true });
  const format = values.format ?? 'auto';
  if (!isFormatOption(format)) throw new UsageError(`Unknown format "${format}"; use one of ${FORMATS.join(', ')}.`);
  if (positionals.length > 1) throw new UsageError('Give at most one file to parse (or - for standard input).');
  const file = positionals[0] ?? '-';
  const text = file === '-' ? await readStdin() : readFileOrThrow(file);
  const result = parseOutput(text, format);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return EXIT.ok;
}

function readFileOrThrow(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`Cannot read ${file}: ${why}.`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

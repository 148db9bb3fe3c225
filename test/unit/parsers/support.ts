// Helpers every parser test shares: captured runner output, failure look-ups, the parsers to rank detect() against.
import { strict as assert } from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import stripAnsi from 'strip-ansi';
import { PARSERS } from '../../../src/runners/parseOutput';
import type { FailingTest, RunnerFormat } from '../../../src/ports/verifier';
import type { OutputParser, ParseResult } from '../../../src/runners/types';

const captured = join(__dirname, '..', '..', 'fixtures', 'captured');

/** A capture from test/fixtures/captured/<runner>/ as written (the XML reports are read this way). */
export function readCaptureRaw(runner: string, name: string): string {
  return readFileSync(join(captured, runner, name), 'utf8');
}

/** A capture with its ANSI colours stripped, as parseOutput hands text to a parser. */
export function readCapture(runner: string, name: string): string {
  return stripAnsi(readCaptureRaw(runner, name));
}

/** The failing IDs, sorted. */
export function ids(r: Pick<ParseResult, 'failing'>): string[] {
  return r.failing.map((f) => f.id).sort();
}

export function failureOf(r: Pick<ParseResult, 'failing'>, id: string): FailingTest {
  const found = r.failing.find((f) => f.id === id);
  assert.ok(found, `no failing test "${id}" in ${JSON.stringify(ids(r))}`);
  return found;
}

export function messageOf(r: Pick<ParseResult, 'failing'>, id: string): string {
  return failureOf(r, id).message;
}

/** Every registered parser but `own`, so detect() is compared against whatever parsers exist. */
export function otherParsers(own: RunnerFormat): OutputParser[] {
  return PARSERS.filter((p) => p.format !== own);
}

/** `parser` scores `text` strictly above every other parser, as `auto` detection needs. */
export function assertRanksFirst(parser: OutputParser, text: string): void {
  const own = parser.detect(text);
  for (const other of otherParsers(parser.format)) {
    assert.ok(own > other.detect(text), `${other.format} scores ${other.detect(text)}, ${parser.format} ${own}`);
  }
}

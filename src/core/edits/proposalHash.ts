// Identifies an edit proposal by what it changes, not by how the model phrased the answer around it,
// so the engine can stop a run that proposes the same edit again (`repeated-proposal`).
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { EditBlock } from './parseBlocks';

function canonicalPath(p: string): string {
  const norm = path.posix.normalize(p.trim().replace(/\\/g, '/'));
  return norm.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

function canonicalText(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

/** sha256 (hex) over the blocks in order, with paths normalized, CRLF as LF and trailing blanks trimmed. */
export function proposalHash(blocks: readonly EditBlock[]): string {
  const canonical = blocks.map((b) => [canonicalPath(b.path), canonicalText(b.search), canonicalText(b.replace)]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * An answer that holds no usable edit is identified by its whole text (whitespace collapsed): the same garbage
 * twice is a repeated proposal too, however it fails to parse.
 */
export function unusableAnswerHash(text: string): string {
  return createHash('sha256').update(`unusable\0${text.replace(/\s+/g, ' ').trim()}`).digest('hex');
}

// Model answers built to be slow to read: each line is one a naive parser or matcher spends quadratic (or worse)
// time on. Shared by the unit tests (correct results), the CLI tests (Stop stays prompt) and bench/bounds.bench.ts.

/** A path wrapped in `n` pairs of quotes: peeled one pair per pass, each pass copying the line. */
export function quotedPath(pairs: number, path = 'src/calc.js'): string {
  return `${"'".repeat(pairs)}${path}${"'".repeat(pairs)}`;
}

/** A fence line whose info string is preceded by `spaces` spaces and ends in a backtick: not a fence. */
export function spacedFence(spaces: number, tail = 'js`'): string {
  return `\`\`\`${' '.repeat(spaces)}${tail}`;
}

/** Prose of about `chars` characters with no sentence end until "3.x", which is not one either. */
export function endlessSentence(chars: number): string {
  return `The bug ${'is in the arithmetic '.repeat(Math.ceil(chars / 21))}3.x`;
}

/** A "[section" header that never closes, opened by `spaces` spaces. */
export function openHeader(spaces: number): string {
  return `[${' '.repeat(spaces)}tool.pytest`;
}

/** `n` copies of `line`, each ending in a newline. */
export function repeatedLines(n: number, line: string): string {
  return `${line}\n`.repeat(n);
}

/**
 * About 1.8 MB (under the 2 MB answer cap, also as a JSON body) of all of the above before one block whose SEARCH is
 * not in src/calc.js: nothing is applied, but reading it took a naive reader minutes.
 */
export function slowToReadAnswer(): string {
  return [
    endlessSentence(600_000),
    spacedFence(400_000),
    '',
    quotedPath(400_000),
    '<<<<<<< SEARCH',
    'no such line in the file',
    '=======',
    'x',
    '>>>>>>> REPLACE',
    '',
  ].join('\n');
}

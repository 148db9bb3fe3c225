// Table 0 of bench/bounds.bench.ts: the time to read one adversarial input at growing sizes. Each size doubles the
// last, so a linear reader shows a ratio near 2 per row, a quadratic one near 4 (the code before issue 10 took
// 20-40 s on the largest rows).
import { cleanPathLine, parseEditBlocks } from '../src/core/edits/parseBlocks';
import { replaceOnce } from '../src/core/edits/matchText';
import { iniSections } from '../src/base/iniSections';
import { summarizeHypothesis } from '../src/core/edits/hypothesis';
import { endlessSentence, openHeader, quotedPath, repeatedLines, spacedFence } from '../test/support/adversarialAnswers';

interface Growth {
  name: string;
  unit: string;
  sizes: number[];
  /** Builds the input of this size outside the timed part; returns the work to time. */
  make(size: number): () => unknown;
}

const doubling = (from: number, steps = 5) => Array.from({ length: steps }, (_, i) => from * 2 ** i);

const GROWTHS: Growth[] = [
  {
    // Longer path lines are prose without a look (MAX_PATH_LINE), so the decoration is peeled only up to 4 KB.
    name: 'nested ** and ` decoration, ×1000 (clean)',
    unit: 'bytes',
    sizes: doubling(256),
    make: (bytes) => {
      const layers = Math.floor((bytes - 8) / 6);
      const line = `${'**`'.repeat(layers)}src/a.ts${'`**'.repeat(layers)}`;
      return () => {
        for (let i = 0; i < 1000; i++) cleanPathLine(line);
      };
    },
  },
  {
    name: 'path line in an answer (parseEditBlocks)',
    unit: 'KB',
    sizes: doubling(50),
    make: (kb) => {
      const text = `${quotedPath(kb * 500)}\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n`;
      return () => parseEditBlocks(text);
    },
  },
  { name: 'fence line of spaces (parseEditBlocks)', unit: 'KB', sizes: doubling(50), make: (kb) => { const text = `${spacedFence(kb * 1000)}\n`; return () => parseEditBlocks(text); } },
  { name: 'sentence without an end (hypothesis)', unit: 'KB', sizes: doubling(50), make: (kb) => { const text = endlessSentence(kb * 1000); return () => summarizeHypothesis(text); } },
  { name: 'open ini header of spaces (iniSections)', unit: 'KB', sizes: doubling(50), make: (kb) => { const text = openHeader(kb * 1000); return () => iniSections(text); } },
  {
    name: 'SEARCH of equal lines, 2× in file (match)',
    unit: 'lines',
    sizes: doubling(5000),
    make: (n) => {
      const file = `${repeatedLines(2 * n, '  x();')}  y();\n`;
      const search = `${repeatedLines(n - 1, '  x();')}  y();\n`;
      return () => replaceOnce(file, search, 'done();\n');
    },
  },
  {
    name: 'SEARCH of equal lines, other indentation',
    unit: 'lines',
    sizes: doubling(5000),
    make: (n) => {
      const file = `${repeatedLines(2 * n, '  x();')}  y();\n`;
      const search = `${repeatedLines(n - 1, 'x();')}y();\n`;
      return () => replaceOnce(file, search, 'done();\n');
    },
  },
  {
    name: 'SEARCH without the file\'s blank lines (match)',
    unit: 'lines',
    sizes: doubling(5000),
    make: (n) => {
      const file = `${repeatedLines(2 * n, '  x();\n')}  y();\n`;
      const search = `${repeatedLines(n - 1, 'x();')}y();\n`;
      return () => replaceOnce(file, search, 'done();\n');
    },
  },
  {
    name: 'numbered SEARCH (match)',
    unit: 'lines',
    sizes: doubling(5000),
    make: (n) => {
      const file = `${repeatedLines(2 * n, '  x();')}  y();\n`;
      const search = Array.from({ length: n }, (_, k) => `${n + 2 + k}: ${k === n - 1 ? '  y();' : '  x();'}`).join('\n');
      return () => replaceOnce(file, search, 'done();\n');
    },
  },
  {
    name: 'SEARCH found nowhere (closest note)',
    unit: 'lines',
    sizes: doubling(5000),
    make: (n) => {
      const file = repeatedLines(2 * n, 'x();');
      const search = `${repeatedLines(n, 'x();')}z();\n`;
      return () => replaceOnce(file, search, 'y();\n');
    },
  },
  {
    name: 'SEARCH found n+1 times (ambiguous)',
    unit: 'lines',
    sizes: doubling(5000),
    make: (n) => {
      const file = repeatedLines(2 * n, 'x();');
      const search = repeatedLines(n, 'x();');
      return () => replaceOnce(file, search, 'y();\n');
    },
  },
];

/** Median of 7 runs after one to warm up, in ms (single runs of a few ms are mostly GC noise). */
function medianMs(work: () => unknown): number {
  const runs: number[] = [];
  work();
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    work();
    runs.push(performance.now() - t0);
  }
  return runs.sort((a, b) => a - b)[3]!;
}

export function growthTable(): void {
  console.log('\n0. Linearity: time to read one input as it doubles (median of 7; ratio = this row / the row above; linear ≈ 2, quadratic ≈ 4)');
  console.log('input                                      | size          | ms      | ratio');
  console.log('-------------------------------------------|---------------|---------|------');
  for (const g of GROWTHS) {
    let last = 0;
    let first = 0;
    for (const size of g.sizes) {
      const ms = medianMs(g.make(size));
      const ratio = last ? `${(ms / last).toFixed(1)}×` : '';
      console.log(`${g.name.padEnd(42)} | ${`${size.toLocaleString('en-US')} ${g.unit}`.padStart(13)} | ${ms.toFixed(2).padStart(7)} | ${ratio.padStart(5)}`);
      last = ms;
      first ||= ms;
    }
    // Single steps of a few ms are noisy (GC); the whole span is not.
    const grew = g.sizes[g.sizes.length - 1]! / g.sizes[0]!;
    console.log(`${''.padEnd(42)} | ${`${grew}× the size`.padStart(13)} | ${`${(last / first).toFixed(1)}×`.padStart(7)} | (linear ${grew}×, quadratic ${grew * grew}×)`);
  }
}

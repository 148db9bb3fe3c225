// The scripted model of bench:candidates: every answer drawn, with a fixed seed, from a stated mix, and served after a
// stated latency (concurrent requests concurrently, as a real endpoint serves them). It reads the workspace when asked,
// as a model reads its prompt: a right answer fixes every line still wrong, a partial one only the first of several.
import * as fs from 'node:fs';
import * as path from 'node:path';

export type Kind = 'right' | 'partial' | 'wrong' | 'unusable' | 'test-editing';

/** The mix, in percent; stated in docs/benchmarks.md beside the table. */
export const MIX: ReadonlyArray<[Kind, number]> = [['right', 20], ['partial', 15], ['wrong', 35], ['unusable', 15], ['test-editing', 15]];

export interface WrongLine {
  file: string;
  /** The lines as the bug left them (a SEARCH that is unique in the file), and as they should be. */
  wrong: string;
  right: string;
}

export interface Case {
  id: string;
  source: 'pathologies' | 'context';
  lines: WrongLine[];
  testDir: string;
  comment: '//' | '#';
  testExt: string;
}

export function draw(random: () => number): Kind {
  let x = random() * 100;
  for (const [kind, pct] of MIX) {
    if (x < pct) return kind;
    x -= pct;
  }
  return 'wrong';
}

const fence = '```';
const block = (file: string, search: string, replace: string) => `${file}\n${fence}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n${fence}\n`;

/** The answer of this kind, as the workspace is now; `i` makes each answer its own (no two wrong answers alike). */
export function answer(c: Case, cwd: string, kind: Kind, i: number): string {
  const open = c.lines.filter((l) => fs.readFileSync(path.join(cwd, l.file), 'utf8').includes(l.wrong));
  if (kind === 'right' && open.length) return `Fixing it.\n${open.map((l) => block(l.file, l.wrong, l.right)).join('\n')}`;
  if (kind === 'partial' && open.length > 1) return `Fixing the first one.\n${block(open[0]!.file, open[0]!.wrong, open[0]!.right)}`;
  if (kind === 'unusable') return `The failure comes from an off-by-one somewhere in the parsing (thought ${i}); I would need to see more.`;
  if (kind === 'test-editing') return `The test expects the wrong value.\n${block(`${c.testDir}/test_greenloop_${i}${c.testExt}`, '', `${c.comment} skip ${i}\n`)}`;
  // Wrong (and a partial with one line left): an edit at the right place that changes nothing that matters — a comment
  // above the wrong line, its indentation kept, so the wrong line stays as it was for a later right answer to find.
  const at = open[0] ?? c.lines[0]!;
  const indent = /^\s*/.exec(at.wrong)![0];
  return `This should do it.\n${block(at.file, at.wrong, `${indent}${c.comment} checked (${i})\n${at.wrong}`)}`;
}

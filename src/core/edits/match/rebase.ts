// Re-bases a loosely matched REPLACE onto the file's own indentation: tabs stay tabs, spaces keep the file's width
// per level, as Zed's and Continue's flexible matching do. A new line is placed relative to the SEARCH line nearest
// before it (its anchor), whose place in the file the match found: the model's depth relative to the anchor, counted in
// the model's levels, becomes the same number of the file's levels.
import { lead, type Line } from './lines';

/** The file's unit of indentation: a tab, or its width of spaces; null when no line of the file is indented. */
export type IndentUnit = string | null;

const TAB_COLS = 4;
const cols = (ws: string): number => [...ws].reduce((n, c) => n + (c === '\t' ? TAB_COLS : 1), 0);

/** Tabs when most indented lines start with one; otherwise the most common step between consecutive indented lines. */
export function fileIndentUnit(file: readonly Line[]): IndentUnit {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let prev = 0;
  for (const l of file) {
    if (l.text.trim() === '') continue;
    const ws = lead(l.text);
    if (ws.startsWith('\t')) tabs++;
    else if (ws.startsWith(' ')) spaces++;
    if (!ws.includes('\t')) {
      const step = ws.length - prev;
      if (step > 0) steps.set(step, (steps.get(step) ?? 0) + 1);
      prev = ws.length;
    }
  }
  if (tabs === 0 && spaces === 0) return null;
  if (tabs > spaces) return '\t';
  let best = 0;
  let seen = 0;
  for (const [step, n] of [...steps].sort((a, b) => a[0] - b[0])) if (n > seen) [best, seen] = [step, n];
  return ' '.repeat(best || 4);
}

/**
 * The model's width of one level: its most common step inward between consecutive lines (a continuation line aligned
 * by 5 columns does not make every column a level), else the greatest common divisor of its depths relative to each other.
 */
export function modelLevelWidth(lines: readonly string[]): number {
  const depths = lines.filter((l) => l.trim() !== '').map((l) => cols(lead(l)));
  if (depths.length === 0) return 0;
  const steps = new Map<number, number>();
  for (let k = 1; k < depths.length; k++) {
    const step = depths[k]! - depths[k - 1]!;
    if (step > 0) steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  let best = 0;
  let seen = 0;
  for (const [step, n] of [...steps].sort((a, b) => a[0] - b[0])) if (n > seen) [best, seen] = [step, n];
  if (best > 0) return best;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  return depths.reduce((g, d) => gcd(g, Math.abs(d - depths[0]!)), 0);
}

function levelsOf(ws: string, unit: string): { levels: number; rest: string } {
  if (unit === '\t') {
    const tabs = /^\t*/.exec(ws)![0].length;
    return { levels: tabs, rest: ws.slice(tabs) };
  }
  const n = cols(ws);
  return { levels: Math.floor(n / unit.length), rest: ' '.repeat(n % unit.length) };
}

export interface Rebaser {
  /** `line` (a REPLACE line), placed relative to the model's `anchor` line that sits in the file as `fileAnchor`. */
  place(line: string, anchor: string, fileAnchor: string): string;
}

export function rebaser(unit: IndentUnit, modelLines: readonly string[]): Rebaser {
  const width = modelLevelWidth(modelLines);
  const modelUsesTabs = modelLines.some((l) => lead(l).startsWith('\t'));
  const fileUnit = unit ?? (modelUsesTabs ? '\t' : ' '.repeat(width || 4));
  return {
    place(line, anchor, fileAnchor) {
      if (line.trim() === '') return '';
      const body = line.trimStart();
      const fileLead = lead(fileAnchor);
      const d = cols(lead(line)) - cols(lead(anchor));
      if (d === 0 || width === 0) return fileLead + body;
      const steps = Math.trunc(d / width);
      const extra = d - steps * width;
      const { levels, rest } = levelsOf(fileLead, fileUnit);
      const depth = Math.max(0, levels + steps);
      return fileUnit.repeat(depth) + (steps === 0 ? rest : '') + ' '.repeat(Math.max(0, extra)) + body;
    },
  };
}

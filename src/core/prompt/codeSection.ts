// The prompt's "## Code" section: each shown file's regions in fences of whole lines as on disk (a SEARCH block copied
// from one matches), "⋮" where lines are left out, the file's other declarations, then the map and what did not fit.
import type { CodeRegion } from '../../ports/codeContext';
import type { GatheredContext, ShownFile } from './gatherContext';

export function codeSection(context: GatheredContext, readOnly: (rel: string) => boolean): string | null {
  const parts: string[] = [];
  for (const file of context.files) parts.push(fileBlock(file, readOnly(file.path)));
  if (context.map.length) {
    parts.push(`### What the other files the failing tests reach define\n${context.map.map((m) => `${m.path}\n${m.lines.map((l) => `- ${l}`).join('\n')}`).join('\n')}`);
  }
  if (context.left.length) parts.push(`Not shown (outside the code budget, --context-tokens): ${context.left.join(', ')}.`);
  if (!parts.length) return null;
  const intro = 'The functions and classes around the lines the failures point to, with their files\' imports; "⋮" marks lines left out. Copy SEARCH lines from these blocks exactly (they are the file\'s lines as on disk).';
  return `## Code\n${intro}\n\n${parts.join('\n\n')}`;
}

function fileBlock(file: ShownFile, readOnly: boolean): string {
  const notes = readOnly ? ['protected test file: read only'] : [];
  if (isWhole(file)) return `${file.path}${notes.length ? ` (${notes.join('; ')})` : ''}\n${fence(file.regions[0]!.text)}`;
  const blocks = merged(file.regions);
  notes.push(`${file.lineCount.toLocaleString('en-US')} lines; shown: ${blocks.map((b) => `${b.startLine}-${b.endLine}${b.name ? ` ${b.name}` : ''}`).join(', ')}`);
  const out = [`${file.path} (${notes.join('; ')})`];
  let next = 1;
  for (const b of blocks) {
    if (b.startLine > next) out.push(gap(next, b.startLine - 1));
    out.push(fence(b.text));
    next = b.endLine + 1;
  }
  if (next <= file.lineCount) out.push(gap(next, file.lineCount));
  if (file.outline.length) out.push(`Also in ${file.path}:\n${file.outline.map((l) => `- ${l}`).join('\n')}`);
  return out.join('\n');
}

/** One region from the first line to the last: the file is shown whole. */
export function isWhole(file: ShownFile): boolean {
  return file.regions.length === 1 && file.regions[0]!.startLine === 1 && file.regions[0]!.endLine >= file.lineCount;
}

function gap(from: number, to: number): string {
  return from === to ? `⋮ (line ${from} left out)` : `⋮ (lines ${from}-${to} left out)`;
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/^`{3,}/gm)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}

/** Regions that touch or overlap read as one block of lines. */
function merged(regions: readonly CodeRegion[]): CodeRegion[] {
  const out: CodeRegion[] = [];
  for (const r of regions) {
    const last = out[out.length - 1];
    if (last && r.startLine <= last.endLine + 1) {
      if (r.endLine > last.endLine) {
        const extra = r.text.split('\n').slice(last.endLine + 1 - r.startLine);
        out[out.length - 1] = { ...last, endLine: r.endLine, text: `${last.text}\n${extra.join('\n')}`, name: [last.name, r.name].filter(Boolean).join(', ') || undefined };
      }
    } else out.push({ ...r });
  }
  return out;
}

// A file as lines that remember their own line endings, and the model's sections as bare line texts.

export type Eol = '' | '\n' | '\r\n';

export interface Line {
  text: string;
  eol: Eol;
}

export function splitLines(body: string): Line[] {
  const out: Line[] = [];
  const re = /\r\n|\n/g;
  let at = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    out.push({ text: body.slice(at, m.index), eol: m[0] as Eol });
    at = m.index + m[0].length;
  }
  if (at < body.length) out.push({ text: body.slice(at), eol: '' });
  return out;
}

/** The model's section as bare line texts; its own line endings are irrelevant. */
export function sectionLines(section: string): string[] {
  const s = section.replace(/\r\n?/g, '\n');
  if (s === '') return [];
  return (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n');
}

export const lead = (s: string): string => /^[ \t]*/.exec(s)![0];
export const isBlank = (s: string): boolean => s.trim() === '';

export function dominantEol(lines: Line[]): Eol {
  let crlf = 0;
  let lf = 0;
  for (const l of lines) {
    if (l.eol === '\r\n') crlf++;
    else if (l.eol === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

// Splits an INI-style file (pyproject.toml, setup.cfg, tox.ini) at its "[section]" headers. Only the boundaries
// are needed — which lines belong to which section — so a full TOML or INI parser would be more than the job.

export interface IniSection {
  /** The header without brackets, e.g. "tool.pytest.ini_options"; "" for lines before the first header. */
  name: string;
  /** The section's lines, trailing space and blank lines dropped, comments kept out. */
  body: string[];
}

/**
 * The name in a "[section]" or "[[table]]" header line (a comment may follow), or null. Read by index, not by one
 * regex: the header regex this replaces took seconds on a line of a few thousand spaces, and an edit's text is the model's.
 */
function headerName(raw: string): string | null {
  const line = raw.trim();
  if (line[0] !== '[') return null;
  for (const open of line[1] === '[' ? [2, 1] : [1]) {
    const close = line.indexOf(']', open);
    if (close < 0) return null;
    const inner = line.slice(open, close);
    if (!inner) continue;
    // As the regex did: a name of spaces only is its last space.
    const name = inner.trim() || inner.slice(-1);
    const after = line.slice(line[close + 1] === ']' ? close + 2 : close + 1).trimStart();
    return after === '' || after[0] === '#' || after[0] === ';' ? name : null;
  }
  return null;
}

export function iniSections(text: string): IniSection[] {
  const out: IniSection[] = [{ name: '', body: [] }];
  for (const raw of text.split(/\r?\n/)) {
    const header = headerName(raw);
    if (header !== null) {
      out.push({ name: header.replace(/^["']|["']$/g, ''), body: [] });
      continue;
    }
    const line = raw.trimEnd();
    if (line.trim() === '' || /^\s*[#;]/.test(line)) continue;
    out[out.length - 1].body.push(line);
  }
  return out;
}

/** The sections whose names match, as one comparable string: what a protected part of such a file is compared by. */
export function sectionsMatching(names: RegExp): (text: string) => string {
  return (text) => JSON.stringify(iniSections(text).filter((s) => names.test(s.name)));
}

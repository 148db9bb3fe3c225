// Splits an INI-style file (pyproject.toml, setup.cfg, tox.ini) at its "[section]" headers. Only the boundaries
// are needed — which lines belong to which section — so a full TOML or INI parser would be more than the job.

export interface IniSection {
  /** The header without brackets, e.g. "tool.pytest.ini_options"; "" for lines before the first header. */
  name: string;
  /** The section's lines, trailing space and blank lines dropped, comments kept out. */
  body: string[];
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:[#;].*)?$/;

export function iniSections(text: string): IniSection[] {
  const out: IniSection[] = [{ name: '', body: [] }];
  for (const raw of text.split(/\r?\n/)) {
    const header = HEADER.exec(raw);
    if (header) {
      out.push({ name: header[1].replace(/^["']|["']$/g, ''), body: [] });
      continue;
    }
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '' || /^\s*[#;]/.test(line)) continue;
    out[out.length - 1].body.push(line);
  }
  return out;
}

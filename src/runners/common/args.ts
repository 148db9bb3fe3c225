// Reading a runner's arguments well enough to replace its file (or package) arguments and its name filter, and
// nothing else: every option Greenloop does not replace is kept as written.

export interface TargetTest {
  /** As in the witness: the title path joined with " > ". */
  id: string;
  /** Workspace-relative file when the runner named one. */
  file?: string;
  /** What the runner said about the failure (its stack may name the file when the runner does not). */
  message?: string;
}

export interface OptionTable {
  /** Options whose value is the next word unless written `--opt=value`. */
  valued: ReadonlySet<string>;
  /** Options Greenloop replaces: dropped, with their value. */
  dropped: ReadonlySet<string>;
}

export interface ReadArgs {
  /** Options and their values, in order, without the dropped ones. */
  options: string[];
  /** The file, directory or pattern arguments. */
  positionals: string[];
  /** Everything from a `--` on (the runner passes it to someone else), `--` included. */
  rest: string[];
}

export function readArgs(args: readonly string[], table: OptionTable): ReadArgs {
  const options: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return { options, positionals, rest: args.slice(i) };
    if (!a.startsWith('-') || a === '-') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const takesNext = eq < 0 && table.valued.has(name) && i + 1 < args.length;
    // `-kexpr`: a short option with its value attached.
    const attached = !a.startsWith('--') && a.length > 2 ? a.slice(0, 2) : null;
    const dropped = table.dropped.has(name) || (attached !== null && table.dropped.has(attached) && table.valued.has(attached));
    if (!dropped) {
      options.push(a);
      if (takesNext) options.push(args[i + 1]);
    }
    if (takesNext) i++;
  }
  return { options, positionals, rest: [] };
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** The files the targets came from, or null when any target's file is unknown (then files cannot narrow the run). */
export function targetFiles(targets: readonly TargetTest[]): string[] | null {
  if (targets.some((t) => !t.file)) return null;
  return unique(targets.map((t) => t.file!)).sort();
}

/** A JavaScript (and RE2) regular expression matching `s` literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Exactly one of the strings, nothing around it. */
export function anyOf(strings: readonly string[]): string {
  return `^(?:${unique(strings).map(escapeRegExp).join('|')})$`;
}

export function titles(id: string): string[] {
  return id.split(' > ');
}

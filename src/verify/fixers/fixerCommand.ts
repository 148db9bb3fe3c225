// How a failing check's own tool fixes what it reports: the check's program (with the wrapper in front of it and the
// options that choose its rules and configuration) asked to fix, on the files its errors name where the tool takes
// files. Nothing here invents a rule: every option kept is the person's, every other one (output format, report
// file) is left out. A check that names its fixer (`CMD:format:fix=FIXCMD`) runs that, as written.
import { programName, type CheckSpec } from '../checkers/commandChecker';
import { formatFromCommand } from '../checkers/readerChoice';
import { joinCommand, splitCommand, type Words } from '../../base/commandWords';
import { FORMAT_FAMILIES, type Family, type FormatKey } from './fixerFamilies';
import { PROGRAM_FAMILIES } from './formatterFamilies';

export interface Fixer {
  /** As a person names the tool. */
  tool: string;
  /** The shell command that fixes these files. */
  command(files: readonly string[]): string;
  /** Whether its exit code says it failed (the tool's own codes; by default anything above 1). */
  failed(exitCode: number): boolean;
}

/** A check's fixer, or why it has none (no tool with a fixer, or the workspace's configuration does not enable it). */
export type FixerChoice = { ok: true; fixer: Fixer } | { ok: false; why: string };

/** The fixer of one check, for a workspace. */
export function fixerOf(spec: CheckSpec, cwd: string): FixerChoice {
  if (spec.fix) {
    const fix = spec.fix;
    return { ok: true, fixer: { tool: programName(fix), command: () => fix, failed: aboveOne } };
  }
  const split = splitCommand(spec.command.trim());
  const words = split.ok && split.commands.length === 1 ? split.commands[0] : null;
  // A formatter found by its program comes first: its check's output is read by a shared reader (GCC-style, MSBuild).
  for (const family of words ? PROGRAM_FAMILIES : []) {
    const found = programIn(words!, family);
    if (found) return choose(family, words!, found, cwd);
  }
  const format = spec.format && spec.format !== 'auto' ? spec.format : formatFromCommand(spec.command);
  const key: FormatKey | null = format === 'cargo-json' ? (/\bclippy\b/.test(spec.command) ? 'clippy' : null) : format;
  const family = key ? FORMAT_FAMILIES[key] : undefined;
  if (!family) return { ok: false, why: `\`${spec.command}\` has no fixer Greenloop knows; name one with ":fix=FIXCMD"` };
  if (!words) return { ok: false, why: `\`${spec.command}\` is not one plain command; name its fixer with ":fix=FIXCMD"` };
  const found = programIn(words, family);
  if (!found) return { ok: false, why: `\`${spec.command}\` does not ${family.subcommand ? `run ${family.tool}` : `name ${family.tool}'s program`}; name its fixer with ":fix=FIXCMD"` };
  return choose(family, words, found, cwd);
}

/** Where the family's program (and subcommand) stands in the words: the program's index and where its options start. */
function programIn(words: Words, family: Family): { at: number; from: number } | null {
  const at = words.findIndex((w) => family.program.test(w));
  if (at < 0) return null;
  let from = at + 1;
  if (family.subcommand) {
    const sub = words.findIndex((w, i) => i > at && family.subcommand!.test(w));
    if (sub < 0) return null;
    from = sub + 1;
  }
  if (family.runs && !family.runs(words.slice(from))) return null;
  return { at, from };
}

function choose(family: Family, words: Words, found: { at: number; from: number }, cwd: string): FixerChoice {
  if (!family.enabled(cwd, words)) {
    return { ok: false, why: `the workspace's own configuration does not enable ${family.tool} (${family.enabledBy ?? 'no configuration file or package.json script of it'})` };
  }
  const args = words.slice(found.from);
  const { kept, rest } = keptOptions(args, family);
  const program = words.slice(0, found.at + 1);
  const failed = family.failed ?? aboveOne;
  return { ok: true, fixer: { tool: family.tool, failed, command: (files) => joinCommand([family.build({ program, kept, files: files.map(asFileWord), rest, args })]) } };
}

/** Exit code 1 is every linter's "findings remain", not a failure. */
function aboveOne(exitCode: number): boolean {
  return exitCode > 1;
}

/** The options that choose rules and configuration, and everything from a `--` on (clippy's lint levels). */
function keptOptions(args: Words, family: Family): { kept: Words; rest: Words } {
  const kept: Words = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return { kept, rest: args.slice(i) };
    if (!a.startsWith('-')) {
      if (family.keepAll) kept.push(a);
      continue;
    }
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    const takesNext = !a.includes('=') && i + 1 < args.length;
    if (family.keepTwo?.has(a)) {
      kept.push(...args.slice(i, i + 3));
      i += 2;
    } else if (family.keepValued.has(name)) {
      kept.push(a);
      if (takesNext) kept.push(args[++i]);
    } else if (family.dropFlag?.test(a)) {
      continue;
    } else if (family.dropValued.has(name)) {
      if (takesNext) i++;
    } else if (family.keepAll || family.keepFlag.test(a)) {
      kept.push(a);
    }
  }
  return { kept, rest: [] };
}

/** A file that starts like an option is given as ./file. */
function asFileWord(file: string): string {
  return file.startsWith('-') ? `./${file}` : file;
}

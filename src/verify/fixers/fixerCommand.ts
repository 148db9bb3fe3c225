// How a failing check's own tool fixes what it reports: the check's program (with the wrapper in front of it and the
// options that choose its rules and configuration) asked to fix, on the files its errors name where the tool takes
// files. Nothing here invents a rule: every option kept is the person's, every other one (output format, report
// file) is left out. A check that names its fixer (`CMD:format:fix=FIXCMD`) runs that, as written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { programName, type CheckSpec } from '../checkers/commandChecker';
import type { CheckerFormat } from '../checkers/checkerTypes';
import { formatFromCommand } from '../checkers/readerChoice';
import { joinCommand, splitCommand, type Words } from '../../base/commandWords';

export interface Fixer {
  /** As a person names the tool. */
  tool: string;
  /** The shell command that fixes these files. */
  command(files: readonly string[]): string;
}

/** A check's fixer, or why it has none (no tool with a fixer, or the workspace's configuration does not enable it). */
export type FixerChoice = { ok: true; fixer: Fixer } | { ok: false; why: string };

interface Family {
  tool: string;
  /** The program's word in the check command. */
  program: RegExp;
  /** Options whose value (the next word) is kept: they choose the rules or the configuration. */
  keepValued: ReadonlySet<string>;
  /** Flags kept as they are. */
  keepFlag: RegExp;
  /** Every word kept but the dropped options (clippy: features, packages and targets are the crate to fix). */
  keepAll?: boolean;
  /** Options whose value is the next word, left out with it (output format, report file). */
  dropValued: ReadonlySet<string>;
  /** The fixing command from the program's words, the kept options and the files. */
  build(program: Words, kept: Words, files: readonly string[], rest: Words): Words;
  /** Whether the workspace's own configuration enables the tool. */
  enabled(cwd: string): boolean;
}

const ESLINT_CONFIGS = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts', '.eslintrc', '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.json', '.eslintrc.yaml', '.eslintrc.yml'];

const FAMILIES: Partial<Record<CheckerFormat | 'clippy', Family>> = {
  eslint: {
    tool: 'ESLint', program: /^(?:.*\/)?eslint(?:\.js|\.cmd)?$/,
    keepValued: new Set(['-c', '--config', '--rule', '--plugin', '--parser', '--parser-options', '--env', '--global', '--ext', '--rulesdir', '--resolve-plugins-relative-to', '--ignore-path', '--ignore-pattern']),
    keepFlag: /^--no-(?:config-lookup|eslintrc|inline-config|ignore)$/,
    dropValued: new Set(['-f', '--format', '-o', '--output-file', '--max-warnings', '--cache-location', '--cache-strategy', '--stats', '--concurrency']),
    build: (program, kept, files) => [...program, ...kept, '--fix', ...files],
    enabled: (cwd) => ESLINT_CONFIGS.some((f) => exists(cwd, f)) || packageNames(cwd, 'eslint', 'eslintConfig'),
  },
  biome: {
    tool: 'Biome', program: /^(?:.*\/)?biome(?:\.cmd)?$/,
    keepValued: new Set(['--config-path']), keepFlag: /^$/,
    dropValued: new Set(['--reporter', '--max-diagnostics', '--diagnostic-level', '--log-level', '--log-kind', '--colors']),
    build: (program, kept, files) => [...program, 'check', '--write', ...kept, ...files],
    enabled: (cwd) => exists(cwd, 'biome.json') || exists(cwd, 'biome.jsonc') || packageNames(cwd, 'biome'),
  },
  oxlint: {
    tool: 'oxlint', program: /^(?:.*\/)?oxlint(?:\.cmd)?$/,
    keepValued: new Set(['-c', '--config', '-A', '-W', '-D', '--allow', '--warn', '--deny', '--tsconfig']),
    keepFlag: /^--(?:disable-)?[\w-]+-plugin$/,
    dropValued: new Set(['-f', '--format', '--max-warnings', '--threads']),
    build: (program, kept, files) => [...program, ...kept, '--fix', ...files],
    enabled: (cwd) => exists(cwd, '.oxlintrc.json') || exists(cwd, 'oxlintrc.json') || packageNames(cwd, 'oxlint'),
  },
  // clippy fixes a whole crate: it takes no files. Every option of the check is kept but its output format.
  clippy: {
    tool: 'clippy', program: /^(?:.*\/)?cargo$/,
    keepValued: new Set(), keepFlag: /^$/, keepAll: true,
    dropValued: new Set(['--message-format']),
    build: (program, kept, _files, rest) => [...program, 'clippy', '--fix', '--allow-dirty', '--allow-staged', ...kept, ...rest],
    enabled: (cwd) => exists(cwd, 'Cargo.toml'),
  },
  // gofmt has no configuration to enable it: a `gofmt -l` check is the person's choice of it. -s and -r are its rules.
  gofmt: {
    tool: 'gofmt', program: /^(?:.*\/)?gofmt$/,
    keepValued: new Set(['-r']), keepFlag: /^-s$/,
    dropValued: new Set(),
    build: (program, kept, files) => [...program, ...kept, '-w', ...files],
    enabled: () => true,
  },
};

/** The fixer of one check, for a workspace. */
export function fixerOf(spec: CheckSpec, cwd: string): FixerChoice {
  if (spec.fix) {
    const fix = spec.fix;
    return { ok: true, fixer: { tool: programName(fix), command: () => fix } };
  }
  const format = spec.format && spec.format !== 'auto' ? spec.format : formatFromCommand(spec.command);
  const key = format === 'cargo-json' ? (/\bclippy\b/.test(spec.command) ? 'clippy' : null) : format;
  const family = key ? FAMILIES[key] : undefined;
  if (!family) return { ok: false, why: `\`${spec.command}\` has no fixer Greenloop knows; name one with ":fix=FIXCMD"` };
  if (!family.enabled(cwd)) return { ok: false, why: `the workspace's own configuration does not enable ${family.tool} (no configuration file or package.json script of it)` };
  const split = splitCommand(spec.command.trim());
  if (!split.ok || split.commands.length !== 1) return { ok: false, why: `\`${spec.command}\` is not one plain command; name its fixer with ":fix=FIXCMD"` };
  const words = split.commands[0];
  const at = words.findIndex((w) => family.program.test(w));
  if (at < 0) return { ok: false, why: `\`${spec.command}\` does not name ${family.tool}'s program; name its fixer with ":fix=FIXCMD"` };
  // `cargo clippy`: the words after the subcommand; any other tool: after its program.
  const from = key === 'clippy' ? words.indexOf('clippy', at) + 1 : at + 1;
  if (from === 0) return { ok: false, why: `\`${spec.command}\` does not run clippy` };
  const { kept, rest } = keptOptions(words.slice(from), family);
  const program = words.slice(0, at + 1);
  return { ok: true, fixer: { tool: family.tool, command: (files) => joinCommand([family.build(program, kept, files.map(asFileWord), rest)]) } };
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
    if (family.keepValued.has(name)) {
      kept.push(a);
      if (takesNext) kept.push(args[++i]);
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

function exists(cwd: string, rel: string): boolean {
  return fs.existsSync(path.join(cwd, rel));
}

/** package.json runs the tool in a script, or (`field`) configures it inline. */
function packageNames(cwd: string, tool: string, field?: string): boolean {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')) as Record<string, unknown>;
    if (field && pkg[field] !== undefined) return true;
    const scripts = pkg.scripts && typeof pkg.scripts === 'object' ? Object.values(pkg.scripts as Record<string, unknown>) : [];
    return scripts.some((s) => typeof s === 'string' && new RegExp(`(?:^|[\\s/])${tool}(?:\\s|$)`).test(s));
  } catch {
    return false;
  }
}

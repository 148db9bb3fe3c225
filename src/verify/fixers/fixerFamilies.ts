// Each tool whose check Greenloop can turn into its fixer: how its program is recognised, which of the check's options
// choose its rules or configuration (kept) and which only shape its output (left out), how the fixing command is
// built, which exit codes are its normal answers, and what in the workspace enables it. Read by fixerCommand.ts.
//
// Two kinds. The linters here are found by the format their check's output is read as (ESLint's JSON, RuboCop's
// JSON). The formatters whose check prints what a shared reader reads — clang-format's GCC-style lines, `dotnet
// format`'s MSBuild lines, Spotless through Maven or Gradle, php-cs-fixer's reports — are found by their program
// (formatterFamilies.ts).
import type { CheckerFormat } from '../checkers/checkerTypes';
import type { Words } from '../../base/commandWords';
import { composerNames, exists, gemfileNames, packageNames } from './workspaceConfig';

export interface FixerParts {
  /** The check's words up to and including the program (wrappers such as `npx` or `bundle exec` in front). */
  program: Words;
  /** The options kept, in the check's order. */
  kept: Words;
  /** The files the check's errors name, as shell words. */
  files: readonly string[];
  /** Everything from a `--` on (clippy's lint levels). */
  rest: Words;
  /** Every word after the program, as the check had them (a Spotless goal or task to turn into its apply). */
  args: Words;
}

export interface Family {
  tool: string;
  /** The program's word in the check command. */
  program: RegExp;
  /** The subcommand after the program that the check runs (`cargo clippy`, `dotnet format`); options follow it. */
  subcommand?: RegExp;
  /** Whether the words after the program run this tool's check (Maven runs Spotless only with its goal). */
  runs?(args: Words): boolean;
  /** Options whose value (the next word) is kept: they choose the rules or the configuration. */
  keepValued: ReadonlySet<string>;
  /** Options kept with the two words after them (phpcs' `--runtime-set KEY VALUE`). */
  keepTwo?: ReadonlySet<string>;
  /** Flags kept as they are. */
  keepFlag: RegExp;
  /** Every word kept but the dropped options (clippy: features, packages and targets are the crate to fix). */
  keepAll?: boolean;
  /** Flags left out even with keepAll (`--verify-no-changes`: the check's, not the fix's). */
  dropFlag?: RegExp;
  /** Options whose value is the next word, left out with it (output format, report file). */
  dropValued: ReadonlySet<string>;
  /** The fixing command. */
  build(parts: FixerParts): Words;
  /** Whether the workspace's own configuration enables the tool; `words` are the check's. */
  enabled(cwd: string, words: Words): boolean;
  /** Whether an exit code says the fixer failed; by default anything above 1 (every linter's "findings remain"). */
  failed?(exitCode: number): boolean;
  /** Why the workspace does not enable it, for the sentence (default: no configuration file or script of it). */
  enabledBy?: string;
}

const ESLINT_CONFIGS = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts', '.eslintrc', '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.json', '.eslintrc.yaml', '.eslintrc.yml'];

/** The keys of the families found by format: a reader's format, and clippy (cargo's JSON read, clippy's fixer). */
export type FormatKey = CheckerFormat | 'clippy' | 'rubocop' | 'phpcs';

export const FORMAT_FAMILIES: Partial<Record<FormatKey, Family>> = {
  eslint: {
    tool: 'ESLint', program: /^(?:.*\/)?eslint(?:\.js|\.cmd)?$/,
    keepValued: new Set(['-c', '--config', '--rule', '--plugin', '--parser', '--parser-options', '--env', '--global', '--ext', '--rulesdir', '--resolve-plugins-relative-to', '--ignore-path', '--ignore-pattern']),
    keepFlag: /^--no-(?:config-lookup|eslintrc|inline-config|ignore)$/,
    dropValued: new Set(['-f', '--format', '-o', '--output-file', '--max-warnings', '--cache-location', '--cache-strategy', '--stats', '--concurrency']),
    build: ({ program, kept, files }) => [...program, ...kept, '--fix', ...files],
    enabled: (cwd) => ESLINT_CONFIGS.some((f) => exists(cwd, f)) || packageNames(cwd, 'eslint', 'eslintConfig'),
  },
  biome: {
    tool: 'Biome', program: /^(?:.*\/)?biome(?:\.cmd)?$/,
    keepValued: new Set(['--config-path']), keepFlag: /^$/,
    dropValued: new Set(['--reporter', '--max-diagnostics', '--diagnostic-level', '--log-level', '--log-kind', '--colors']),
    build: ({ program, kept, files }) => [...program, 'check', '--write', ...kept, ...files],
    enabled: (cwd) => exists(cwd, 'biome.json') || exists(cwd, 'biome.jsonc') || packageNames(cwd, 'biome'),
  },
  oxlint: {
    tool: 'oxlint', program: /^(?:.*\/)?oxlint(?:\.cmd)?$/,
    keepValued: new Set(['-c', '--config', '-A', '-W', '-D', '--allow', '--warn', '--deny', '--tsconfig']),
    keepFlag: /^--(?:disable-)?[\w-]+-plugin$/,
    dropValued: new Set(['-f', '--format', '--max-warnings', '--threads']),
    build: ({ program, kept, files }) => [...program, ...kept, '--fix', ...files],
    enabled: (cwd) => exists(cwd, '.oxlintrc.json') || exists(cwd, 'oxlintrc.json') || packageNames(cwd, 'oxlint'),
  },
  // clippy fixes a whole crate: it takes no files. Every option of the check is kept but its output format.
  clippy: {
    tool: 'clippy', program: /^(?:.*\/)?cargo$/, subcommand: /^clippy$/,
    keepValued: new Set(), keepFlag: /^$/, keepAll: true,
    dropValued: new Set(['--message-format']),
    build: ({ program, kept, rest }) => [...program, 'clippy', '--fix', '--allow-dirty', '--allow-staged', ...kept, ...rest],
    enabled: (cwd) => exists(cwd, 'Cargo.toml'),
    enabledBy: 'no Cargo.toml',
  },
  // gofmt has no configuration to enable it: a `gofmt -l` check is the person's choice of it. -s and -r are its rules.
  gofmt: {
    tool: 'gofmt', program: /^(?:.*\/)?gofmt$/,
    keepValued: new Set(['-r']), keepFlag: /^-s$/,
    dropValued: new Set(),
    build: ({ program, kept, files }) => [...program, ...kept, '-w', ...files],
    enabled: () => true,
  },
  // RuboCop's safe corrections (`-a`); the unsafe ones (`-A`) only when the person's check already asked for them.
  // The options that load or choose cops are kept; output, caching and exit-level options are the check's own.
  rubocop: {
    tool: 'RuboCop', program: /^(?:.*\/)?rubocop$/,
    keepValued: new Set(['-c', '--config', '--only', '--except', '-r', '--require', '--plugin']),
    keepFlag: /^(?:-l|--lint|--force-exclusion|--only-recognized-file-types|--ignore-parent-exclusion|--ignore-disable-comments|-A|--autocorrect-all|--auto-correct-all)$/,
    dropValued: new Set(['-f', '--format', '-o', '--out', '--fail-level', '--cache', '--cache-root', '--stdin', '-s', '--exclude-limit']),
    build: ({ program, kept, files }) => {
      const all = kept.some((w) => /^(?:-A|--autocorrect-all|--auto-correct-all)$/.test(w));
      return [...program, ...kept.filter((w) => !/^(?:-A|--autocorrect-all|--auto-correct-all)$/.test(w)), all ? '-A' : '-a', ...files];
    },
    enabled: (cwd) => exists(cwd, '.rubocop.yml') || gemfileNames(cwd, 'rubocop'),
    enabledBy: 'no .rubocop.yml, nor rubocop in the Gemfile',
  },
  // PHP_CodeSniffer's own fixer is its sibling program: phpcs → phpcbf beside it, with the standard and sniffs kept.
  // phpcbf's exit codes are its own: 3.x answers 1 "fixed", 2 "some could not be fixed", 3 "processing error"; 4.x
  // adds the bits 1, 2 and 4 for what remains and answers 16 or 64 when it could not run.
  phpcs: {
    tool: 'PHP_CodeSniffer', program: /^(?:.*\/)?phpcs(?:\.phar|\.bat)?$/,
    keepValued: new Set(['--standard', '--sniffs', '--exclude', '--extensions', '--ignore', '--severity', '--error-severity', '--warning-severity', '--tab-width', '--encoding', '--bootstrap', '-d']),
    keepTwo: new Set(['--runtime-set']),
    keepFlag: /^(?:-n|-w|--ignore-annotations)$/,
    dropValued: new Set(['--report', '--report-file', '--report-width', '--basepath', '--cache', '--parallel', '--generator', '--filter']),
    build: ({ program, kept, files }) => [...program.slice(0, -1), program[program.length - 1].replace(/phpcs((?:\.phar|\.bat)?)$/, 'phpcbf$1'), ...kept, ...files],
    enabled: (cwd) => ['phpcs.xml', 'phpcs.xml.dist', '.phpcs.xml', '.phpcs.xml.dist'].some((f) => exists(cwd, f)) || composerNames(cwd, 'squizlabs/php_codesniffer'),
    enabledBy: 'no phpcs.xml(.dist) or .phpcs.xml(.dist), nor squizlabs/php_codesniffer in composer.json',
    failed: (code) => code === 3 || code >= 16,
  },
};

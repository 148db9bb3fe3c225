// Which reader reads a check command's output: the format the person named, else the one the output itself shows
// (a JSON report's shape, a summary line), else the one the command names (`go vet` prints nothing when clean).
import type { CheckerFormat, CheckerReader } from './checkerTypes';
import { CHECKER_FORMATS } from './checkerTypes';
import { biomeReader } from './readers/biome';
import { cargoJsonReader } from './readers/cargoJson';
import { eslintReader } from './readers/eslint';
import { gccReader } from './readers/gcc';
import { msbuildReader } from './readers/msbuild';
import { phpLintReader } from './readers/phpLint';
import { goVetReader } from './readers/govet';
import { gofmtReader } from './readers/gofmt';
import { javacReader } from './readers/javac';
import { mypyReader } from './readers/mypy';
import { oxlintReader } from './readers/oxlint';
import { pylintReader } from './readers/pylint';
import { pyrightReader } from './readers/pyright';
import { tscReader } from './readers/tsc';
import { checkstyleReader } from './readers/checkstyle';
import { clangTidyReader } from './readers/clangTidy';
import { phpcsReader } from './readers/phpcs';
import { phpstanReader } from './readers/phpstan';
import { pmdReader } from './readers/pmd';
import { psalmReader } from './readers/psalm';
import { rubocopReader } from './readers/rubocop';
import { spotbugsReader } from './readers/spotbugs';
import { spotlessReader } from './readers/spotless';
import { phpCsFixerReader } from './readers/phpCsFixer';

/** Every reader; the GCC-style fallback last. */
export const READERS: readonly CheckerReader[] = [
  eslintReader, biomeReader, oxlintReader, pyrightReader, mypyReader, pylintReader, goVetReader, gofmtReader, cargoJsonReader, tscReader, javacReader, phpLintReader, msbuildReader,
  clangTidyReader, rubocopReader, checkstyleReader, spotbugsReader, pmdReader, phpcsReader, phpstanReader, psalmReader,
  spotlessReader, phpCsFixerReader,
  gccReader,
];

export function readerFor(format: CheckerFormat): CheckerReader {
  const reader = READERS.find((r) => r.format === format);
  if (!reader) throw new Error(`No checker reader for "${format}".`);
  return reader;
}

/** A format a person typed ("ESLint", "cargo", "clippy", "go vet"), or null with the accepted names to show. */
export function parseCheckerFormat(raw: string): CheckerFormat | null {
  const name = raw.trim().toLowerCase().replace(/[\s_]+/g, '-');
  const aliases: Record<string, CheckerFormat> = {
    govet: 'go-vet', go: 'go-vet', cargo: 'cargo-json', clippy: 'cargo-json', 'cargo-check': 'cargo-json',
    'cargo-clippy': 'cargo-json', rustc: 'cargo-json', basedpyright: 'pyright', typescript: 'tsc', clang: 'gcc', java: 'javac', maven: 'javac', mvn: 'javac',
    php: 'php-lint', 'php-l': 'php-lint', dotnet: 'msbuild', 'dotnet-build': 'msbuild', csc: 'msbuild',
    clangtidy: 'clang-tidy', 'run-clang-tidy': 'clang-tidy', findbugs: 'spotbugs', 'php-codesniffer': 'phpcs', phpcodesniffer: 'phpcs',
    codesniffer: 'phpcs', 'php-cs': 'phpcs', phpcsfixer: 'php-cs-fixer', 'php-cs-fixer': 'php-cs-fixer',
  };
  return (CHECKER_FORMATS as readonly string[]).includes(name) ? (name as CheckerFormat) : aliases[name] ?? null;
}

export function formatNames(): string {
  return CHECKER_FORMATS.join(', ');
}

export interface Detected {
  reader: CheckerReader;
  score: number;
}

/** Below this, an output is not said to be any checker's. */
export const MIN_SCORE = 0.2;

/** Every reader's score for `text`, best first (ties keep READERS' order, so a specific reader beats the fallback). */
export function scoreReaders(text: string): Detected[] {
  return READERS.map((reader) => ({ reader, score: reader.detect(text) })).sort((a, b) => b.score - a.score);
}

/** The reader the output shows, or null when none recognises it. */
export function detectReader(text: string): Detected | null {
  const best = scoreReaders(text)[0];
  return best && best.score >= MIN_SCORE ? best : null;
}

// The program a command runs, through the wrappers people put in front of it.
const COMMAND_FORMATS: [RegExp, CheckerFormat][] = [
  [/(?:^|[\s/])eslint(?:\.js|\.cmd)?(?:\s|$)/, 'eslint'],
  [/(?:^|[\s/])biome(?:\.cmd)?\s+(?:lint|check|ci)\b/, 'biome'],
  [/(?:^|[\s/])oxlint(?:\.cmd)?(?:\s|$)/, 'oxlint'],
  [/(?:^|[\s/])(?:based)?pyright(?:\.cmd)?(?:\s|$)/, 'pyright'],
  [/(?:^|[\s/])d?mypy(?:\s|$)|-m\s+mypy\b/, 'mypy'],
  [/(?:^|[\s/])pylint(?:\s|$)|-m\s+pylint\b/, 'pylint'],
  [/(?:^|[\s/])go\s+vet\b/, 'go-vet'],
  [/(?:^|[\s/])gofmt(?:\s+-[a-z]+)*\s+-l\b/, 'gofmt'],
  [/(?:^|[\s/])cargo(?:\s+\+\S+)?\s+(?:check|clippy)\b/, 'cargo-json'],
  [/(?:^|[\s/])(?:vue-)?tsc(?:\.cmd)?(?:\s|$)/, 'tsc'],
  // The linters of issue 39, ahead of Maven's javac: `mvn spotbugs:check`, `mvn pmd:check` and `mvn checkstyle:check`
  // are the linter's run, not a compile.
  [/(?:^|[\s/])(?:run-)?clang-tidy(?:-\d+)?(?:\.py)?(?:\s|$)/, 'clang-tidy'],
  [/(?:^|[\s/])rubocop(?:\s|$)/, 'rubocop'],
  [/(?:^|[\s/])checkstyle(?:\s|$)|checkstyle[\w.-]*\.jar\b|\bcheckstyle:check(?:\s|$)|\bcheckstyle(?:Main|Test)\b/, 'checkstyle'],
  [/(?:^|[\s/])spotbugs(?:\s|$)|\bspotbugs:check(?:\s|$)|\bspotbugs(?:Main|Test)\b/, 'spotbugs'],
  [/(?:^|[\s/])pmd(?:\.bat)?\s|\bpmd:check(?:\s|$)|\bpmd(?:Main|Test)\b/, 'pmd'],
  [/(?:^|[\s/])phpcs(?:\.phar)?(?:\s|$)/, 'phpcs'],
  [/(?:^|[\s/])phpstan(?:\.phar)?(?:\s|$)/, 'phpstan'],
  [/(?:^|[\s/])psalm(?:\.phar)?(?:\s|$)/, 'psalm'],
  // The formatters' checks, ahead of Maven's javac too: `mvn spotless:check`, `./gradlew spotlessJavaCheck`.
  [/(?:^|[\s:])spotless(?:\w*Check|:check)(?:@[\w.-]+)?(?:\s|$)|spotless-maven-plugin(?::[\w.-]+)?:check\b/, 'spotless'],
  [/(?:^|[\s/])php-cs-fixer(?:\.phar)?(?:\s|$)/, 'php-cs-fixer'],
  // Maven's compile goals and javac itself; Gradle's compileJava prints javac's own lines.
  [/(?:^|[\s/])(?:mvnw?|javac)(?:\.cmd)?(?:\s|$)/, 'javac'],
  [/(?:^|[\s/])gradlew?(?:\.bat)?\s.*\bcompile\w*Java\b/, 'javac'],
  [/(?:^|[\s/])php[\d.]*\s+(?:-\S+\s+)*-l\b/, 'php-lint'],
  // `dotnet format --verify-no-changes` prints MSBuild's lines (`error WHITESPACE`, `warning IDE0055`), nothing when clean.
  [/(?:^|[\s/])(?:dotnet\s+(?:build|msbuild|format)|msbuild)\b/, 'msbuild'],
  // `clang-format --dry-run -Werror` prints GCC-style lines (`error: code should be clang-formatted`), nothing when clean.
  [/(?:^|[\s/])clang-format(?:-\d+)?(?:\s|$)/, 'gcc'],
];

/** The format a command's own words name (`npx eslint --format json .` → eslint), or null. */
export function formatFromCommand(command: string): CheckerFormat | null {
  for (const [re, format] of COMMAND_FORMATS) if (re.test(command)) return format;
  return null;
}

/**
 * The reader for an output: `format` when given; else the best-scoring reader when the output shows one clearly;
 * else the reader the command names, when its output can be that tool's (its report, or the silence of a tool that
 * prints nothing when clean); else the best weak guess; else null.
 */
export function chooseReader(text: string, command: string, format?: CheckerFormat): CheckerReader | null {
  if (format) return readerFor(format);
  const detected = detectReader(text);
  if (detected && detected.score >= 0.5) return detected.reader;
  const named = formatFromCommand(command);
  if (named) {
    const reader = readerFor(named);
    if (reader.detect(text) > 0 || (text.trim() === '' && reader.silentWhenClean)) return reader;
  }
  return detected?.reader ?? null;
}

// The formatters whose fixer is found by its program, whatever reader reads their check's output: clang-format (read
// as GCC-style lines), PHP CS Fixer (a Checkstyle or JUnit report), Spotless through Maven or Gradle, and `dotnet
// format` (MSBuild's lines). A formatter's fix answers 0 when it wrote its files: any other exit code is a failure.
// PHP CS Fixer, Spotless and `dotnet format` are built from their documented command lines: none of them
// installs from Debian's packages, so the tests check the commands, not a run.
import type { Family } from './fixerFamilies';
import { composerNames, exists, fileNames, hasProjectFile, upward } from './workspaceConfig';

const unlessZero = (code: number): boolean => code !== 0;

// Maven and Gradle options whose value is the next word (profiles, modules, the build file, settings).
const MAVEN_VALUED = new Set(['-f', '--file', '-pl', '--projects', '-P', '--activate-profiles', '-s', '--settings', '-gs', '--global-settings', '-t', '--toolchains', '-T', '--threads', '-rf', '--resume-from', '-D', '--define']);
const GRADLE_VALUED = new Set(['-p', '--project-dir', '-b', '--build-file', '-c', '--settings-file', '-I', '--init-script', '-g', '--gradle-user-home', '-P', '--project-prop', '-D', '--system-prop', '-x', '--exclude-task', '--include-build']);

/** Families found by their program, whatever reader reads their check's output. */
export const PROGRAM_FAMILIES: readonly Family[] = [
  // `clang-format --dry-run -Werror FILES` → `clang-format -i FILES`; the style options kept. Exit 1 is an error.
  {
    tool: 'clang-format', program: /^(?:.*\/)?clang-format(?:-\d+)?(?:\.exe)?$/,
    keepValued: new Set(['-style', '--style', '-fallback-style', '--fallback-style']),
    keepFlag: /^--?(?:sort-includes|qualifier-alignment)(?:=.*)?$/,
    dropValued: new Set(['-assume-filename', '--assume-filename', '-files', '--files', '-lines', '--lines', '-offset', '--offset', '-length', '--length', '-cursor', '--cursor', '-ferror-limit', '--ferror-limit']),
    build: ({ program, kept, files }) => [...program, ...kept, '-i', ...files],
    enabled: (cwd) => upward(cwd, ['.clang-format', '_clang-format']),
    enabledBy: 'no .clang-format or _clang-format file in the workspace or above it',
    failed: unlessZero,
  },
  // `php-cs-fixer check` or `fix --dry-run` → `fix` on the files; the configuration and rules kept. php-cs-fixer's
  // bits 4 and 8 (invalid syntax, files to fix) belong to a dry run; after a real fix anything but 0 is a failure.
  {
    tool: 'PHP CS Fixer', program: /^(?:.*\/)?php-cs-fixer(?:\.phar)?$/, subcommand: /^(?:check|fix)$/,
    keepValued: new Set(['--config', '--rules', '--allow-risky', '--path-mode', '--using-cache', '--allow-unsupported-php-version']),
    keepFlag: /^$/,
    dropValued: new Set(['--format', '--cache-file', '--show-progress', '--stop-on-violation']),
    build: ({ program, kept, files }) => [...program, 'fix', ...kept, ...files],
    enabled: (cwd) => ['.php-cs-fixer.php', '.php-cs-fixer.dist.php', '.php_cs', '.php_cs.dist'].some((f) => exists(cwd, f)) || composerNames(cwd, 'friendsofphp/php-cs-fixer'),
    enabledBy: 'no .php-cs-fixer.php or .php-cs-fixer.dist.php, nor friendsofphp/php-cs-fixer in composer.json',
    failed: unlessZero,
  },
  // Spotless through Maven: the check goal becomes its apply goal (prefix as written), the build's options kept,
  // its other goals left out. Spotless formats what its configuration names: it takes no files here.
  {
    tool: 'Spotless', program: /^(?:.*\/)?mvnw?(?:\.cmd)?$/,
    keepValued: MAVEN_VALUED, keepFlag: /^-/,
    dropValued: new Set(['-l', '--log-file']),
    build: ({ program, kept, args }) => [...program, ...kept, ...args.filter(isSpotlessGoal).map((g) => g.replace(/:check(@[\w.-]+)?$/, ':apply$1'))],
    runs: (args) => args.some(isSpotlessGoal),
    enabled: (cwd) => fileNames(cwd, ['pom.xml'], /spotless-maven-plugin/),
    enabledBy: 'no spotless-maven-plugin in pom.xml',
    failed: unlessZero,
  },
  // Spotless through Gradle: `spotlessCheck` (or `spotlessJavaCheck`, `:app:spotlessCheck`) becomes its Apply task.
  {
    tool: 'Spotless', program: /^(?:.*\/)?gradlew?(?:\.bat)?$/,
    keepValued: GRADLE_VALUED, keepFlag: /^-/,
    dropValued: new Set(['--console', '--warning-mode']),
    build: ({ program, kept, args }) => [...program, ...kept, ...args.filter(isSpotlessTask).map((t) => t.replace(/Check$/, 'Apply'))],
    runs: (args) => args.some(isSpotlessTask),
    enabled: (cwd) => fileNames(cwd, ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle/libs.versions.toml'], /com\.diffplug\.spotless/),
    enabledBy: 'no com.diffplug.spotless plugin in build.gradle(.kts), settings.gradle(.kts) or gradle/libs.versions.toml',
    failed: unlessZero,
  },
  // `dotnet format --verify-no-changes` → `dotnet format`: the project, the subcommand (whitespace, style,
  // analyzers), severities and includes kept; the report file left out. It formats the project: no files added.
  {
    tool: 'dotnet format', program: /^(?:.*\/)?dotnet(?:\.exe)?$/, subcommand: /^format$/,
    keepValued: new Set(), keepFlag: /^$/, keepAll: true,
    dropFlag: /^--verify-no-changes$/,
    dropValued: new Set(['--report', '--binarylog']),
    build: ({ program, kept }) => [...program, 'format', ...kept],
    enabled: (cwd, words) => (words.some((w) => /\.(?:sln|slnx|csproj|fsproj|vbproj)$/.test(w) && exists(cwd, w)) || hasProjectFile(cwd)) && upward(cwd, ['.editorconfig']),
    enabledBy: 'no .sln or .csproj with an .editorconfig',
    failed: unlessZero,
  },
];

function isSpotlessGoal(word: string): boolean {
  return /^(?:spotless|com\.diffplug\.spotless:spotless-maven-plugin(?::[\w.-]+)?):check(?:@[\w.-]+)?$/.test(word);
}

function isSpotlessTask(word: string): boolean {
  return /^(?::[\w.-]+)*:?spotless\w*Check$/.test(word);
}

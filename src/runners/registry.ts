// The one list of runners (each one room, src/runners/<name>/) and of the readers no runner owns, and what every
// layer reads of them. Adding a runner is its folder, its tests and a line here (docs/development.md, "A runner is one
// room"). Reading this file loads no runner's code (see runner.ts): the extension's activation and the CLI's help use it.
import type { JunitDialect, ProtectedPart, Reader, Runner, SuggestedCommand, TamperRule } from './runner';
import { mocha } from './mocha/mocha';
import { jest } from './jest/jest';
import { vitest } from './vitest/vitest';
import { node } from './node/node';
import { pytest } from './pytest/pytest';
import { unittest } from './unittest/unittest';
import { go } from './go/go';
import { cargo } from './cargo/cargo';
import { ctest } from './ctest/ctest';
import { gtest } from './gtest/gtest';
import { catch2 } from './catch2/catch2';
import { maven } from './maven/maven';
import { gradle } from './gradle/gradle';
import { rspec } from './rspec/rspec';
import { minitest } from './minitest/minitest';
import { testunit } from './testunit/testunit';
import { phpunit } from './phpunit/phpunit';
import { dotnet } from './dotnet/dotnet';

/**
 * The runners, in the order `auto` prefers their formats when two outputs look alike (a tie goes to the first), which is
 * also the order their files and rules are listed in. pytest comes before unittest, as their parsers always have: an
 * output both are equally sure of is read as pytest's; minitest before test-unit (both run by `rake test`), whose
 * outputs differ but for Ruby's report of a file that did not load, which both read alike.
 */
export const RUNNERS: readonly Runner[] = [mocha, jest, vitest, node, pytest, unittest, go, cargo, ctest, gtest, catch2, maven, gradle, rspec, minitest, testunit, phpunit, dotnet];

/** Formats read after every runner's: JUnit XML (many runners write it; `--junit GLOB`) and tsc's diagnostics. */
export const READERS: readonly Reader[] = [
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  { format: 'junit', code: () => (require('./readers/junit') as typeof import('./readers/junit')).junitParserWith(junitDialectOf) },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  { format: 'tsc', code: () => (require('./readers/tsc') as typeof import('./readers/tsc')).tscParser },
];

/** Every format an output is read as (`greenloop parse --format`, without `auto`): the runners' in order, then the readers'. */
export function formatNames(runners: readonly Runner[] = RUNNERS, readers: readonly Reader[] = READERS): string[] {
  return [...runners.flatMap((r) => r.formats), ...readers.map((r) => r.format)];
}

/** The runner whose output a format is (tap → node: node --test prints TAP into a pipe); none for a reader's format. */
export function runnerOfFormat(format: string, runners: readonly Runner[] = RUNNERS): Runner | undefined {
  return runners.find((r) => r.formats.includes(format));
}

export function runnerNamed(name: string, runners: readonly Runner[] = RUNNERS): Runner | undefined {
  return runners.find((r) => r.name === name);
}

/** Each item once, where it first appears: several runners list the same glob, part or rule. */
function once<T>(lists: ReadonlyArray<readonly T[] | undefined>): T[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

/** Every runner's test files and the files that decide how they run. */
export function runnerProtectedGlobs(runners: readonly Runner[] = RUNNERS): string[] {
  return once(runners.flatMap((r) => [r.files.tests, r.files.config]));
}

/** Parts of shared files that decide how some runner's tests run (package.json's test scripts, pytest's sections). */
export function runnerProtectedParts(runners: readonly Runner[] = RUNNERS): ProtectedPart[] {
  return once(runners.map((r) => r.parts));
}

/** Every runner's tamper rules, and the assertion modules whose replacement is tampering. */
export function tamperRules(runners: readonly Runner[] = RUNNERS): { rules: TamperRule[]; assertionModules: string[] } {
  return { rules: once(runners.map((r) => r.tamper)), assertionModules: once(runners.map((r) => r.assertionModules)) };
}

/** Globs of what some runner's runs rewrite. */
export function runnerRegenerated(runners: readonly Runner[] = RUNNERS): string[] {
  return once(runners.map((r) => r.regenerated));
}

/** What some runner prints when it finds no test to run. */
export function noTestsPatterns(runners: readonly Runner[] = RUNNERS): RegExp[] {
  return once(runners.map((r) => r.noTests));
}

/** Why an output names no test the loop can use, where some runner recognises it as its own unreadable reporter. */
export function unreadableOutput(output: string, exit: string, runners: readonly Runner[] = RUNNERS): string | null {
  for (const r of runners) {
    const why = r.unreadable?.(output, exit);
    if (why) return why;
  }
  return null;
}

/** Whether a word is a test function's name for some runner (go's `TestParse`, pytest's `test_parse`). */
export function isTestFunctionName(word: string, runners: readonly Runner[] = RUNNERS): boolean {
  return runners.some((r) => r.testFunction?.test(word) ?? false);
}

/** The JUnit dialect of the runner whose mark a report's first 64 KB carries (only that runner's code is loaded). */
export function junitDialectOf(head: string, runners: readonly Runner[] = RUNNERS): JunitDialect | null {
  const writer = runners.find((r) => r.junitReports?.test(head));
  return writer?.code().junit ?? null;
}

/** The first runner's command for a workspace laid out for it (`pom.xml` → Maven), when no test command was given. */
export function suggestedTestCommand(cwd: string, runners: readonly Runner[] = RUNNERS): (SuggestedCommand & { runner: string }) | null {
  for (const r of runners) {
    const s = r.suggestCommand?.(cwd);
    if (s) return { ...s, runner: r.name };
  }
  return null;
}

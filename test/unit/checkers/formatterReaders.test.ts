// The formatters' own checks as checkers (issue 39, item 6): Spotless through Maven and Gradle, PHP CS Fixer's JSON and
// txt reports (its checkstyle report goes to the Checkstyle reader), and maven-checkstyle-plugin's console. None of
// them installs here: every output is RECORDED from the tools' own repositories
// (test/fixtures/captured/checkers/recorded/README.md names repository, path and commit, and says which files are
// assembled from a tool's source and tests rather than copied from one run). Then, end to end, that the Spotless and
// PHP CS Fixer fixers are reached from their checks' outputs.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { CheckerDiagnostic, CheckerFormat } from '../../../src/verify/checkers/checkerTypes';
import { FORMAT_EXTENSIONS, FORMAT_SOURCES } from '../../../src/verify/checkers/checkerTypes';
import { readCheck, type CheckSpec } from '../../../src/verify/checkers/commandChecker';
import { parseCheckSpec } from '../../../src/verify/checkers/checkSpec';
import { formatFromCommand, MIN_SCORE, parseCheckerFormat, readerFor, scoreReaders } from '../../../src/verify/checkers/readerChoice';
import { identityOf } from '../../../src/verify/checkers/runChecks';
import { fixerOf } from '../../../src/verify/fixers/fixerCommand';
import { ProjectFixers } from '../../../src/verify/fixers/projectFixers';
import { fixTargets } from '../../../src/core/loop/autofix';
import type { WitnessSummary } from '../../../src/ports/runState';
import { tempDir } from '../support/cli';
import { brief, capture, CAPTURED, read, ROOT } from './support';

const recorded = (tool: string, file: string): string => fs.readFileSync(path.join(CAPTURED, 'recorded', tool, file), 'utf8');
const keys = (ds: CheckerDiagnostic[]): string[] => ds.map((d) => `${d.file}|${d.source}|${d.code}|${d.message}`).sort();
const run = (output: string, exitCode: number) => ({ output, droppedBytes: 0, exitCode, signal: null, timedOut: false, cancelled: false, durationMs: 1, notFound: false });

function workspace(files: Record<string, string>): string {
  const dir = tempDir('formatter-reader');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('formatter readers: Spotless, PHP CS Fixer, maven-checkstyle-plugin (recorded)', () => {
  it('each recording ranks its own reader first, at 0.5 or more, strictly ahead of the next (javac\'s included)', () => {
    const cases: [string, CheckerFormat][] = [
      [recorded('spotless', 'maven-readme.txt'), 'spotless'], [recorded('spotless', 'gradle-readme.txt'), 'spotless'],
      [recorded('spotless', 'maven-multiple-files.txt'), 'spotless'], [recorded('spotless', 'gradle-many-files.txt'), 'spotless'],
      [recorded('spotless', 'gradle-many-many-files.txt'), 'spotless'], [recorded('spotless', 'gradle-lint.txt'), 'spotless'],
      [recorded('spotless', 'maven-lint.txt'), 'spotless'],
      [recorded('php-cs-fixer', 'complex.json'), 'php-cs-fixer'], [recorded('php-cs-fixer', 'simple.json'), 'php-cs-fixer'],
      [recorded('php-cs-fixer', 'no-errors.json'), 'php-cs-fixer'], [recorded('php-cs-fixer', 'applied-fixers.txt'), 'php-cs-fixer'],
      [recorded('php-cs-fixer', 'simple.txt'), 'php-cs-fixer'], [recorded('php-cs-fixer', 'complex-decorated.txt'), 'php-cs-fixer'],
      [recorded('php-cs-fixer', 'no-errors-dry-run.txt'), 'php-cs-fixer'], [recorded('php-cs-fixer', 'complex-checkstyle.xml'), 'checkstyle'],
      [recorded('maven-checkstyle-plugin', 'check-errors.txt'), 'checkstyle'], [recorded('maven-checkstyle-plugin', 'check-warnings.txt'), 'checkstyle'],
      [recorded('maven-checkstyle-plugin', 'check-clean.txt'), 'checkstyle'],
    ];
    for (const [text, format] of cases) {
      const [first, second] = scoreReaders(text);
      assert.equal(first.reader.format, format, text.slice(0, 80));
      assert.ok(first.score >= 0.5 && first.score > second.score, `${format}: ${first.score} vs ${second.reader.format} ${second.score}`);
    }
    // Nor do the new readers claim the other checkers' captures.
    for (const [tool, name] of [['eslint', 'errors'], ['gcc', 'errors'], ['checkstyle', 'errors'], ['checkstyle', 'console'], ['rubocop', 'console'], ['phpcs', 'errors'], ['clang-tidy', 'errors']]) {
      assert.ok(!['spotless', 'php-cs-fixer'].includes(scoreReaders(capture(tool, name))[0].reader.format), `${tool}/${name}`);
    }
    // A clean Spotless run shows only that Spotless ran: not claimed on its own, read when the command names Spotless.
    assert.ok(scoreReaders(recorded('spotless', 'maven-clean.txt'))[0].score < MIN_SCORE);
  });

  it('the command picks the reader ahead of Maven\'s javac; the names people type are accepted', () => {
    const commands: [string, CheckerFormat | null][] = [
      ['mvn spotless:check', 'spotless'], ['mvn -B -q verify spotless:check', 'spotless'], ['./mvnw spotless:check@ci', 'spotless'],
      ['mvn com.diffplug.spotless:spotless-maven-plugin:2.43.0:check', 'spotless'], ['./gradlew spotlessCheck', 'spotless'],
      ['./gradlew --offline spotlessJavaCheck', 'spotless'], ['gradle :app:spotlessKotlinCheck', 'spotless'],
      ['vendor/bin/php-cs-fixer check --format=json src', 'php-cs-fixer'], ['php-cs-fixer fix --dry-run -v', 'php-cs-fixer'],
      ['php php-cs-fixer.phar check', 'php-cs-fixer'], ['mvn -B checkstyle:check', 'checkstyle'], ['mvn -B -q test-compile', 'javac'],
      ['./gradlew spotlessApply', null],
    ];
    for (const [command, format] of commands) assert.equal(formatFromCommand(command), format, command);
    for (const [name, format] of [['Spotless', 'spotless'], ['PHP CS Fixer', 'php-cs-fixer'], ['php-cs-fixer', 'php-cs-fixer'], ['phpcsfixer', 'php-cs-fixer']] as const) {
      assert.equal(parseCheckerFormat(name), format, name);
    }
    assert.deepEqual(parseCheckSpec('mvn -B spotless:check'), { command: 'mvn -B spotless:check' });
    assert.deepEqual(FORMAT_SOURCES.spotless, ['spotless']);
    assert.deepEqual(FORMAT_EXTENSIONS['php-cs-fixer'], ['.php']);
  });

  it('Spotless through Maven and Gradle: one finding per file, at its first hunk, the file as the workspace names it', () => {
    const readme = read(readerFor('spotless'), recorded('spotless', 'maven-readme.txt'));
    assert.deepEqual(brief(readme), ['src/main/java/com/diffplug/gradle/spotless/FormatExtension.java:0:0 spotless format-violation error']);
    assert.deepEqual(keys(read(readerFor('spotless'), recorded('spotless', 'gradle-readme.txt')).diagnostics), keys(readme.diagnostics));
    assert.deepEqual(brief(read(readerFor('spotless'), recorded('spotless', 'maven-multiple-files.txt'))), [
      'A:1:0 spotless format-violation error', 'B:1:0 spotless format-violation error',
    ]);
    // Past 50 lines: a diff cut short is no file; the files Spotless lists after it are findings like the others.
    const many = read(readerFor('spotless'), recorded('spotless', 'gradle-many-files.txt'));
    assert.deepEqual(many.diagnostics.map((d) => d.file), Array.from({ length: 18 }, (_, i) => `${String(i).padStart(2, '0')}.txt`));
    // Only counted: one finding with no file, whose message changes when the count does.
    const counted = read(readerFor('spotless'), recorded('spotless', 'gradle-many-many-files.txt'));
    assert.equal(counted.diagnostics.length, 10);
    assert.deepEqual(counted.diagnostics.filter((d) => d.file === '').map((d) => d.message), ['Violations also present in 10 other files (Spotless does not name them)']);
  });

  it('Spotless\'s lints are findings too, the step as code; a build that fails without Spotless\'s words is no report', () => {
    assert.deepEqual(brief(read(readerFor('spotless'), recorded('spotless', 'gradle-lint.txt'))), ['README.md:0:0 spotless noSwearingStep error']);
    const maven = read(readerFor('spotless'), recorded('spotless', 'maven-lint.txt'));
    assert.deepEqual(maven.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`), [1, 2, 5, 6, 7].map((n) => `src/main/java/TestFile.java:${n} forbidWildcardImports`));
    assert.equal(maven.diagnostics[0].message.slice(0, 44), '(import java.util.*;) Do not use wildcard im');
    const noPlugin = readCheck({ command: 'mvn spotless:check' }, run("[ERROR] No plugin found for prefix 'spotless' in the current project and in the plugin groups [org.apache.maven.plugins]\n", 1), ROOT);
    assert.ok(!noPlugin.ok && noPlugin.kind === 'crashed', JSON.stringify(noPlugin));
  });

  it('a clean Spotless run is clean: BUILD SUCCESS with its count, or nothing at all with -q', () => {
    const clean = readCheck({ command: 'mvn -B spotless:check' }, run(recorded('spotless', 'maven-clean.txt'), 0), ROOT);
    assert.ok(clean.ok && clean.report.format === 'spotless' && clean.report.all.length === 0 && clean.report.checkedCount === 3, JSON.stringify(clean));
    for (const command of ['mvn -B -q spotless:check', './gradlew -q spotlessCheck']) {
      const quiet = readCheck({ command }, run('', 0), ROOT);
      assert.ok(quiet.ok && quiet.report.all.length === 0, command);
    }
    // Before these readers `mvn spotless:check`'s violations went to javac's reader and were a crash.
    const failed = readCheck({ command: 'mvn spotless:check' }, run(recorded('spotless', 'maven-multiple-files.txt'), 1), ROOT);
    assert.ok(failed.ok && failed.report.diagnostics.length === 2, JSON.stringify(failed));
  });

  it('Spotless in a multi-module build: the path is the module\'s, found under the Gradle project or Maven module folder', () => {
    const dir = workspace({ 'app/src/main/java/A.java': 'class A {}\n', 'core/src/main/java/B.java': 'class B {}\n' });
    try {
      const gradle = recorded('spotless', 'gradle-many-files.txt').replace(/:spotlessMiscCheck/g, ':app:spotlessJavaCheck').replace('      00.txt', '      src/main/java/A.java');
      const files = read(readerFor('spotless'), gradle, { cwd: dir }).diagnostics.map((d) => d.file);
      assert.ok(files.includes('app/src/main/java/A.java') && files.includes('01.txt'), files.join(' '));
      const maven = recorded('spotless', 'maven-multiple-files.txt').replace('on project spotless-maven-plugin-tests', 'on project core').replace('[ERROR]     A\n', '[ERROR]     src/main/java/B.java\n');
      assert.deepEqual(read(readerFor('spotless'), maven, { cwd: dir }).diagnostics.map((d) => d.file), ['B', 'core/src/main/java/B.java']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PHP CS Fixer JSON and txt: one finding per file and fixer, the fixer as code; without -v one per file; the same run read alike', () => {
    const json = read(readerFor('php-cs-fixer'), recorded('php-cs-fixer', 'complex.json'));
    assert.deepEqual(json.diagnostics.map((d) => `${d.file} ${d.source} ${d.code} ${d.severity}`), [
      'anotherFile.php php-cs-fixer another_fixer_name_here error', 'someFile.php php-cs-fixer some_fixer_name_here_1 error',
      'someFile.php php-cs-fixer some_fixer_name_here_2 error',
    ]);
    assert.equal(json.diagnostics[0].message, 'Found violation(s) of type: another_fixer_name_here');
    const txt = read(readerFor('php-cs-fixer'), recorded('php-cs-fixer', 'complex-decorated.txt'));
    assert.deepEqual(keys(txt.diagnostics), keys(json.diagnostics));
    assert.equal(txt.checkedCount, 10);
    assert.deepEqual(keys(read(readerFor('php-cs-fixer'), recorded('php-cs-fixer', 'applied-fixers.txt')).diagnostics), keys(json.diagnostics).filter((k) => k.startsWith('someFile')));
    // Without -v neither report names the fixers; the diff's lines are never entries.
    for (const name of ['simple.json', 'simple.txt']) {
      assert.deepEqual(brief(read(readerFor('php-cs-fixer'), recorded('php-cs-fixer', name))), ['someFile.php:0:0 php-cs-fixer  error'], name);
    }
    assert.equal(read(readerFor('php-cs-fixer'), recorded('php-cs-fixer', 'no-errors.json')).all.length, 0);
    const dry = readCheck({ command: 'php-cs-fixer check' }, run(recorded('php-cs-fixer', 'no-errors-dry-run.txt'), 0), ROOT);
    assert.ok(dry.ok && dry.report.all.length === 0 && dry.report.checkedCount === 1, JSON.stringify(dry));
    const said = readerFor('php-cs-fixer').read('PHP CS Fixer 3.64.0\nLoaded config default.\n', { cwd: ROOT });
    assert.ok(!said.ok && /Found N of M files/.test(said.reason));
  });

  it('PHP CS Fixer\'s --format=checkstyle goes to the Checkstyle reader and gives the JSON\'s findings, as errors, with .php in reach', () => {
    const command = 'vendor/bin/php-cs-fixer check --format=checkstyle src';
    const out = readCheck({ command }, run(recorded('php-cs-fixer', 'complex-checkstyle.xml'), 8), ROOT);
    assert.ok(out.ok && out.report.format === 'checkstyle', JSON.stringify(out));
    assert.deepEqual(keys(out.report.diagnostics), keys(read(readerFor('php-cs-fixer'), recorded('php-cs-fixer', 'complex.json')).diagnostics));
    // It names only the files it would change: a fixed file leaving the list has not left the checker's reach.
    assert.equal(out.report.checkedIsComplete, false);
    const identity = identityOf(out.report, command);
    assert.ok(identity.sources.includes('php-cs-fixer') && identity.extensions.includes('.php'), JSON.stringify(identity));
  });

  it('maven-checkstyle-plugin\'s console: the Checkstyle reader, not javac\'s; module names as codes; what it prints it fails on', () => {
    const errors = read(readerFor('checkstyle'), recorded('maven-checkstyle-plugin', 'check-errors.txt'));
    assert.deepEqual(brief(errors), [
      'src/main/java/org/example/ledger/Money.java:3:8 checkstyle UnusedImports error',
      'src/main/java/org/example/ledger/Money.java:6:24 checkstyle MemberName error',
      'src/main/java/org/example/ledger/Money.java:15:9 checkstyle NeedBraces error',
      'src/main/java/org/example/ledger/Rates.java:15:27 checkstyle EmptyBlock error',
    ]);
    // The same audit as Checkstyle's own XML (the capture the plugin's lines were made from): the same multiset.
    assert.deepEqual(keys(errors.diagnostics), keys(read(readerFor('checkstyle'), capture('checkstyle', 'errors')).diagnostics));
    // With violationSeverity=warning it prints (and fails on) the warnings too: [WARNING], or [WARN].
    const warnings = read(readerFor('checkstyle'), recorded('maven-checkstyle-plugin', 'check-warnings.txt'));
    assert.deepEqual(keys(warnings.diagnostics), keys(read(readerFor('checkstyle'), capture('checkstyle', 'errors'), { warnings: true }).diagnostics));
    const warn = read(readerFor('checkstyle'), recorded('maven-checkstyle-plugin', 'check-warnings.txt').replace(/^\[WARNING\] /gm, '[WARN] '));
    assert.equal(warn.diagnostics.length, 6);
    const viaMaven = readCheck({ command: 'mvn -B checkstyle:check' }, run(recorded('maven-checkstyle-plugin', 'check-errors.txt'), 1), ROOT);
    assert.ok(viaMaven.ok && viaMaven.report.format === 'checkstyle' && viaMaven.report.diagnostics.every((d) => d.code !== ''), JSON.stringify(viaMaven));
    assert.equal(readerFor('javac').detect(recorded('maven-checkstyle-plugin', 'check-errors.txt')), 0);
    const clean = readCheck({ command: 'mvn -B checkstyle:check' }, run(recorded('maven-checkstyle-plugin', 'check-clean.txt'), 0), ROOT);
    assert.ok(clean.ok && clean.report.all.length === 0, JSON.stringify(clean));
  });
});

describe('formatter fixers reached from their checks\' outputs (Spotless, PHP CS Fixer)', () => {
  /** The check read as runChecks reads it, then attempt 0's targets as the loop picks them. */
  function targets(spec: CheckSpec, output: string, exitCode: number, cwd: string) {
    const out = readCheck(spec, run(output, exitCode), cwd);
    assert.ok(out.ok, JSON.stringify(out));
    const witness = {
      diagnostics: out.report.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, code: d.code, message: d.message, source: d.source })),
      checkers: { [spec.command]: identityOf(out.report, spec.command) },
    } as unknown as WitnessSummary;
    const fixers = new ProjectFixers(cwd, [spec]);
    return fixTargets(witness, fixers).map((t) => {
      const choice = fixerOf(spec, cwd);
      assert.ok(choice.ok, choice.ok ? '' : choice.why);
      return { files: t.files, command: choice.fixer.command(t.files) };
    });
  }

  it('`mvn spotless:check` → `mvn spotless:apply`; `./gradlew spotlessJavaCheck` → `spotlessJavaApply`', () => {
    const pom = workspace({ 'pom.xml': '<project><build><plugins><plugin><groupId>com.diffplug.spotless</groupId><artifactId>spotless-maven-plugin</artifactId></plugin></plugins></build></project>\n' });
    const gradle = workspace({ 'build.gradle.kts': 'plugins {\n  java\n  id("com.diffplug.spotless") version "6.25.0"\n}\n' });
    try {
      assert.deepEqual(targets(parseCheckSpec('mvn -B spotless:check'), recorded('spotless', 'maven-multiple-files.txt'), 1, pom), [{ files: ['A', 'B'], command: 'mvn -B spotless:apply' }]);
      assert.deepEqual(targets(parseCheckSpec('./gradlew spotlessJavaCheck'), recorded('spotless', 'gradle-readme.txt'), 1, gradle), [
        { files: ['src/main/java/com/diffplug/gradle/spotless/FormatExtension.java'], command: './gradlew spotlessJavaApply' },
      ]);
      // Clean: nothing to fix, no attempt 0.
      assert.deepEqual(targets(parseCheckSpec('mvn -B spotless:check'), recorded('spotless', 'maven-clean.txt'), 0, pom), []);
    } finally {
      fs.rmSync(pom, { recursive: true, force: true });
      fs.rmSync(gradle, { recursive: true, force: true });
    }
  });

  it('`php-cs-fixer check` (json, txt or checkstyle) → `php-cs-fixer fix FILES`', () => {
    const dir = workspace({ '.php-cs-fixer.dist.php': '<?php return (new PhpCsFixer\\Config());\n' });
    try {
      const fix = { files: ['anotherFile.php', 'someFile.php'], command: 'vendor/bin/php-cs-fixer fix anotherFile.php someFile.php' };
      assert.deepEqual(targets(parseCheckSpec('vendor/bin/php-cs-fixer check --format=json -v src'), recorded('php-cs-fixer', 'complex.json'), 8, dir), [fix]);
      assert.deepEqual(targets(parseCheckSpec('vendor/bin/php-cs-fixer check -v src'), recorded('php-cs-fixer', 'complex-decorated.txt'), 8, dir), [fix]);
      assert.deepEqual(targets(parseCheckSpec('vendor/bin/php-cs-fixer check --format=checkstyle src'), recorded('php-cs-fixer', 'complex-checkstyle.xml'), 8, dir), [fix]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The linters of Java, C/C++, Ruby and PHP as checkers (issue 39, item 6). clang-tidy, RuboCop, Checkstyle and
// PHP_CodeSniffer on outputs captured by really running them (test/fixtures/regenerate/linters.sh), and RuboCop run
// for real here; PHPStan, Psalm, SpotBugs and PMD on outputs RECORDED in the tools' own repositories
// (test/fixtures/captured/checkers/recorded/README.md names each file's repository, path and commit): they do not
// install here. Each reads into the witness's multiset: by file, source, code and message.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { CheckerDiagnostic, CheckerFormat } from '../../../src/verify/checkers/checkerTypes';
import { FORMAT_EXTENSIONS, FORMAT_SOURCES } from '../../../src/verify/checkers/checkerTypes';
import { readCheck } from '../../../src/verify/checkers/commandChecker';
import { chooseReader, formatFromCommand, MIN_SCORE, parseCheckerFormat, readerFor, scoreReaders } from '../../../src/verify/checkers/readerChoice';
import { ROOT as REPO, tempDir } from '../support/cli';
import { needToolchain } from '../support/toolchains';
import { brief, capture, CAPTURED, exitCodeOf, read, ROOT } from './support';

const recorded = (tool: string, file: string): string => fs.readFileSync(path.join(CAPTURED, 'recorded', tool, file), 'utf8');
const keys = (ds: CheckerDiagnostic[]): string[] => ds.map((d) => `${d.file}|${d.source}|${d.code}|${d.message}`).sort();
const run = (output: string, exitCode: number) => ({ output, droppedBytes: 0, exitCode, signal: null, timedOut: false, cancelled: false, durationMs: 1, notFound: false });

describe('linter readers: clang-tidy, RuboCop, Checkstyle, PHP_CodeSniffer (captured), PHPStan, Psalm, SpotBugs, PMD (recorded)', () => {
  it('every capture and recording ranks its own reader first, at 0.5 or more, strictly ahead of the next', () => {
    const cases: [string, CheckerFormat][] = [
      [capture('clang-tidy', 'errors'), 'clang-tidy'], [capture('clang-tidy', 'as-errors'), 'clang-tidy'],
      [capture('clang-tidy', 'syntax-error'), 'clang-tidy'], [capture('clang-tidy', 'clean'), 'clang-tidy'],
      [capture('rubocop', 'errors'), 'rubocop'], [capture('rubocop', 'console'), 'rubocop'], [capture('rubocop', 'emacs'), 'rubocop'],
      [capture('rubocop', 'clean'), 'rubocop'], [capture('rubocop', 'syntax-error'), 'rubocop'],
      [capture('checkstyle', 'errors'), 'checkstyle'], [capture('checkstyle', 'console'), 'checkstyle'],
      [capture('checkstyle', 'clean'), 'checkstyle'], [capture('checkstyle', 'clean-console'), 'checkstyle'],
      [capture('phpcs', 'errors'), 'phpcs'], [capture('phpcs', 'clean'), 'phpcs'],
      [recorded('phpstan', 'errors.json'), 'phpstan'], [recorded('phpstan', 'clean.json'), 'phpstan'],
      [recorded('psalm', 'errors.json'), 'psalm'],
      [recorded('spotbugs', 'default-scenario.xml'), 'spotbugs'], [recorded('spotbugs', 'first-file.xml'), 'spotbugs'],
      [recorded('pmd', 'report.json'), 'pmd'], [recorded('pmd', 'empty.json'), 'pmd'], [recorded('pmd', 'processing-error.json'), 'pmd'],
      [recorded('pmd', 'report.xml'), 'pmd'],
    ];
    for (const [text, format] of cases) {
      const [first, second] = scoreReaders(text);
      assert.equal(first.reader.format, format, text.slice(0, 80));
      assert.ok(first.score >= 0.5 && first.score > second.score, `${format}: ${first.score} vs ${second.reader.format} ${second.score}`);
    }
  });

  it('the command names the linter, through wrappers, ahead of Maven\'s javac; the names people type are accepted', () => {
    const commands: [string, CheckerFormat | null][] = [
      ['clang-tidy -p build src/money.cpp', 'clang-tidy'], ['run-clang-tidy -p build', 'clang-tidy'], ['clang-tidy-14 -p . a.cpp', 'clang-tidy'],
      ['bundle exec rubocop --format json', 'rubocop'], ['checkstyle -c config.xml -f xml src', 'checkstyle'],
      ['java -jar checkstyle-10.12.0-all.jar -c c.xml src', 'checkstyle'], ['mvn -B checkstyle:check', 'checkstyle'],
      ['mvn -B spotbugs:check', 'spotbugs'], ['./gradlew spotbugsMain', 'spotbugs'], ['pmd check -d src -R rulesets/java/quickstart.xml -f json', 'pmd'],
      ['mvn pmd:check', 'pmd'], ['vendor/bin/phpcs --report=json', 'phpcs'], ['vendor/bin/phpstan analyse --error-format=json', 'phpstan'],
      ['./vendor/bin/psalm --output-format=json', 'psalm'], ['mvn -B -q test-compile', 'javac'], ['rubocop-lsp', null], ['npm run pmd-report', null],
    ];
    for (const [command, format] of commands) assert.equal(formatFromCommand(command), format, command);
    const names: [string, CheckerFormat][] = [
      ['clang-tidy', 'clang-tidy'], ['clang tidy', 'clang-tidy'], ['RuboCop', 'rubocop'], ['Checkstyle', 'checkstyle'], ['spotbugs', 'spotbugs'],
      ['findbugs', 'spotbugs'], ['PMD', 'pmd'], ['phpcs', 'phpcs'], ['PHP_CodeSniffer', 'phpcs'], ['PHPStan', 'phpstan'], ['psalm', 'psalm'],
    ];
    for (const [name, format] of names) assert.equal(parseCheckerFormat(name), format, name);
    for (const format of ['clang-tidy', 'rubocop', 'checkstyle', 'spotbugs', 'pmd', 'phpcs', 'phpstan', 'psalm'] as CheckerFormat[]) {
      assert.deepEqual(FORMAT_SOURCES[format], [format === 'clang-tidy' ? 'clang-tidy' : format]);
      assert.ok(FORMAT_EXTENSIONS[format].length > 0);
    }
  });

  it('clang-tidy: the check name is the code, a header warning once, --warnings-as-errors makes errors of the same findings', () => {
    const r = read(readerFor('clang-tidy'), capture('clang-tidy', 'errors'));
    assert.equal(r.diagnostics.length, 0, 'clang-tidy warns: nothing counts unless warnings are asked for');
    assert.deepEqual(brief(r, 'all'), [
      'src/money.cpp:8:18 clang-tidy readability-braces-around-statements warning',
      'src/money.cpp:9:18 clang-tidy bugprone-integer-division warning',
      'src/money.cpp:9:18 clang-tidy bugprone-narrowing-conversions warning',
      'src/money.cpp:13:36 clang-tidy performance-unnecessary-value-param warning',
      'src/money.cpp:14:20 clang-tidy readability-braces-around-statements warning',
      'src/money.cpp:15:12 clang-tidy modernize-use-nullptr warning',
      'src/money.cpp:20:15 clang-tidy bugprone-narrowing-conversions warning',
    ]);
    const asErrors = read(readerFor('clang-tidy'), capture('clang-tidy', 'as-errors'));
    assert.deepEqual(keys(asErrors.diagnostics), keys(read(readerFor('clang-tidy'), capture('clang-tidy', 'errors'), { warnings: true }).diagnostics));
    const broken = read(readerFor('clang-tidy'), capture('clang-tidy', 'syntax-error'));
    assert.deepEqual(brief(broken), ['src/broken.cpp:4:15 clang-tidy clang-diagnostic-error error']);
    assert.deepEqual(broken.checked, ['src/broken.cpp']);
    // The same warning printed for two files that include one header is one finding.
    const twice = `${capture('clang-tidy', 'errors')}\n/home/dev/project/src/money.cpp:15:12: warning: use nullptr [modernize-use-nullptr]\n`;
    assert.equal(read(readerFor('clang-tidy'), twice, { warnings: true }).diagnostics.length, 7);
    // The GCC-style fallback would have named them after the command and missed the check names of a wrapper's output.
    assert.equal(chooseReader(capture('clang-tidy', 'errors'), 'cmake --build build --target tidy')?.format, 'clang-tidy');
  });

  it('clang-tidy: a clean run and silence are clean; a broken configuration is a crash with its own words, not a finding', () => {
    assert.equal(read(readerFor('clang-tidy'), capture('clang-tidy', 'clean')).all.length, 0);
    const silent = readCheck({ command: 'clang-tidy -p . src/clean.cpp' }, run('', 0), ROOT);
    assert.ok(silent.ok && silent.report.format === 'clang-tidy' && silent.report.all.length === 0);
    const bad = readCheck({ command: "clang-tidy -p . --config='{Checks: [' src/clean.cpp" }, run(capture('clang-tidy', 'bad-config'), exitCodeOf('clang-tidy', 'bad-config')), ROOT);
    assert.ok(!bad.ok);
    assert.equal(bad.kind, 'crashed');
    assert.match(bad.sentence, /invalid configuration|Could not find closing/);
  });

  it('RuboCop JSON: cop names as codes, every inspected file checked, conventions are warnings and syntax errors errors', () => {
    const r = read(readerFor('rubocop'), capture('rubocop', 'errors'), { warnings: true });
    assert.deepEqual(r.checked, ['lib/ledger/clean.rb', 'lib/ledger/money.rb', 'lib/ledger/rates.rb']);
    assert.equal(r.checkedIsComplete, true);
    assert.deepEqual(r.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`), [
      'lib/ledger/money.rb:14 Lint/UselessAssignment', 'lib/ledger/money.rb:15 Layout/EmptyLineAfterGuardClause',
      'lib/ledger/money.rb:15 Style/StringLiterals', 'lib/ledger/money.rb:20 Style/FormatStringToken', 'lib/ledger/money.rb:20 Style/FormatStringToken',
      'lib/ledger/rates.rb:1 Style/FrozenStringLiteralComment', 'lib/ledger/rates.rb:14 Style/IfUnlessModifier',
      'lib/ledger/rates.rb:14 Style/NilComparison', 'lib/ledger/rates.rb:14 Layout/EmptyLineAfterGuardClause',
    ]);
    assert.equal(r.diagnostics[0].message, 'Useless assignment to variable - `unused`.');
    assert.equal(read(readerFor('rubocop'), capture('rubocop', 'errors')).diagnostics.length, 0);
    const syntax = read(readerFor('rubocop'), capture('rubocop', 'syntax-error'));
    assert.deepEqual(brief(syntax), ['lib/ledger/broken.rb:3:1 rubocop Lint/Syntax error', 'lib/ledger/broken.rb:5:5 rubocop Lint/Syntax error']);
    const clean = read(readerFor('rubocop'), capture('rubocop', 'clean'));
    assert.ok(clean.all.length === 0 && clean.checked[0] === 'lib/ledger/clean.rb');
  });

  it('RuboCop console (default and emacs): the same findings by file, line, column and cop, and the count it inspected', () => {
    const json = read(readerFor('rubocop'), capture('rubocop', 'errors'), { warnings: true });
    const where = (ds: CheckerDiagnostic[]) => ds.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.severity}`);
    for (const name of ['console', 'emacs']) {
      const r = read(readerFor('rubocop'), capture('rubocop', name), { warnings: true });
      assert.deepEqual(where(r.diagnostics), where(json.diagnostics), name);
    }
    assert.equal(read(readerFor('rubocop'), capture('rubocop', 'console')).checkedCount, 3);
    const missing = readCheck({ command: 'rubocop --format json --config missing.yml lib' }, run(capture('rubocop', 'config-error'), exitCodeOf('rubocop', 'config-error')), ROOT);
    assert.ok(!missing.ok && missing.kind === 'crashed' && /Configuration file not found/.test(missing.sentence), missing.ok ? '' : missing.sentence);
  });

  it('Checkstyle XML and console: module names as codes, each severity as configured, the XML lists every audited file', () => {
    const xml = read(readerFor('checkstyle'), capture('checkstyle', 'errors'));
    assert.deepEqual(xml.checked, ['src/main/java/org/example/ledger/Label.java', 'src/main/java/org/example/ledger/Money.java', 'src/main/java/org/example/ledger/Rates.java']);
    assert.equal(xml.checkedIsComplete, true);
    assert.deepEqual(brief(xml), [
      'src/main/java/org/example/ledger/Money.java:3:8 checkstyle UnusedImports error',
      'src/main/java/org/example/ledger/Money.java:6:24 checkstyle MemberName error',
      'src/main/java/org/example/ledger/Money.java:15:9 checkstyle NeedBraces error',
      'src/main/java/org/example/ledger/Rates.java:15:27 checkstyle EmptyBlock error',
    ]);
    assert.equal(xml.diagnostics[1].message, "Name 'Minor' must match pattern '^[a-z][a-zA-Z0-9]*$'.");
    const console = read(readerFor('checkstyle'), capture('checkstyle', 'console'), { warnings: true });
    assert.deepEqual(keys(console.diagnostics), keys(read(readerFor('checkstyle'), capture('checkstyle', 'errors'), { warnings: true }).diagnostics));
    assert.equal(console.diagnostics.filter((d) => d.code === 'MagicNumber' && d.severity === 'warning').length, 2);
    assert.equal(read(readerFor('checkstyle'), capture('checkstyle', 'clean-console')).all.length, 0);
    // A file Checkstyle cannot parse stops it: no report, even though the command names Checkstyle.
    const crash = readCheck({ command: 'checkstyle -c checkstyle.xml -f xml src' }, run(capture('checkstyle', 'config-error'), exitCodeOf('checkstyle', 'config-error')), ROOT);
    assert.ok(!crash.ok && crash.kind === 'crashed', crash.ok ? '' : crash.sentence);
    const said = readerFor('checkstyle').read(capture('checkstyle', 'config-error'), { cwd: ROOT });
    assert.ok(!said.ok && /Checkstyle stopped \("Exception was thrown while processing src\/Broken\.java"\)/.test(said.reason));
  });

  it('PHP_CodeSniffer JSON: sniff codes, ERROR and WARNING, every checked file named (slashes JSON-escaped)', () => {
    const r = read(readerFor('phpcs'), capture('phpcs', 'errors'), { warnings: true });
    assert.deepEqual(brief(r), [
      'src/Exchange/Rates.php:18:9 phpcs Generic.Files.LineLength.TooLong warning',
      'src/Money.php:13:46 phpcs Squiz.Functions.MultiLineFunctionDeclaration.BraceOnSameLine error',
      'src/Money.php:14:9 phpcs Generic.ControlStructures.InlineControlStructure.NotAllowed error',
    ]);
    assert.deepEqual(r.checked, ['src/Exchange/Rates.php', 'src/Label.php', 'src/Money.php']);
    assert.equal(r.checkedIsComplete, true);
    const bad = readCheck({ command: 'phpcs --report=json --standard=NoSuchStandard src' }, run(capture('phpcs', 'config-error'), exitCodeOf('phpcs', 'config-error')), ROOT);
    assert.ok(!bad.ok && bad.kind === 'crashed' && /not installed/.test(bad.sentence));
  });

  it('PHPStan JSON (recorded): file errors by file and line, errors of no file with an empty file, the identifier as code', () => {
    const r = read(readerFor('phpstan'), recorded('phpstan', 'errors.json'), { cwd: '/data/folder/with space/and unicode 😃/project' });
    assert.deepEqual(r.diagnostics.map((d) => `${d.file}:${d.line} ${JSON.stringify(d.message)}`), [
      ':0 "first generic error"', ':0 "second generic<error>"',
      'folder with unicode 😃/file name with "spaces" and unicode 😃.php:2 "Bar\\nBar2"',
      'folder with unicode 😃/file name with "spaces" and unicode 😃.php:4 "Foo"',
      'foo.php:1 "Foo<Bar>"', 'foo.php:5 "Bar\\nBar2"',
    ]);
    assert.equal(read(readerFor('phpstan'), recorded('phpstan', 'clean.json')).all.length, 0);
    // PHPStan 1.11+ adds the rule's identifier to each message (src/Command/ErrorFormatter/JsonErrorFormatter.php):
    // the recorded report with one added, and PHPStan's non-pretty one-line printing.
    const withId = JSON.parse(recorded('phpstan', 'errors.json'));
    withId.files['/data/folder/with space/and unicode 😃/project/foo.php'].messages[0].identifier = 'argument.type';
    const one = read(readerFor('phpstan'), JSON.stringify(withId), { cwd: '/data/folder/with space/and unicode 😃/project' });
    assert.deepEqual(one.diagnostics.filter((d) => d.code).map((d) => `${d.file}:${d.line} ${d.code}`), ['foo.php:1 argument.type']);
  });

  it('Psalm JSON (recorded): issue types as codes, info issues counted only with warnings; `[]` is Psalm\'s when the command says so', () => {
    const r = read(readerFor('psalm'), recorded('psalm', 'errors.json'));
    assert.deepEqual(brief(r), [
      'somefile.php:3:10 psalm MixedReturnStatement error', 'somefile.php:3:10 psalm UndefinedVariable error',
      'somefile.php:8:6 psalm UndefinedConstant error',
    ]);
    assert.deepEqual(brief(read(readerFor('psalm'), recorded('psalm', 'errors.json'), { warnings: true })).slice(3), ['somefile.php:17:6 psalm PossiblyUndefinedGlobalVariable warning']);
    const clean = readCheck({ command: 'vendor/bin/psalm --output-format=json' }, run(recorded('psalm', 'clean.json'), 0), ROOT);
    assert.ok(clean.ok && clean.report.format === 'psalm' && clean.report.all.length === 0);
  });

  it('SpotBugs XML (recorded): bug patterns as codes at the bug\'s own line, the path under the project\'s source folder', () => {
    const r = read(readerFor('spotbugs'), recorded('spotbugs', 'default-scenario.xml'));
    assert.deepEqual(brief(r), [
      'A.java:10:0 spotbugs EI_EXPOSE_REP error', 'A.java:17:0 spotbugs EI_EXPOSE_REP2 error', 'B.java:3:0 spotbugs DM_STRING_CTOR error',
      'B.java:3:0 spotbugs URF_UNREAD_FIELD error',
    ]);
    const newer = read(readerFor('spotbugs'), recorded('spotbugs', 'first-file.xml'));
    assert.deepEqual(brief(newer), ['TestFile:69:0 spotbugs Test error']);
    // A Maven project's report names its source folder (<SrcDir>): the path is the workspace's.
    const dir = tempDir('spotbugs-src');
    try {
      fs.mkdirSync(path.join(dir, 'src', 'main', 'java'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', 'main', 'java', 'A.java'), 'class A {}\n');
      const text = recorded('spotbugs', 'default-scenario.xml').replace('<Project projectName="TestProject">', `<Project projectName="TestProject"><SrcDir>${dir}/src/test/java</SrcDir><SrcDir>${dir}/src/main/java</SrcDir>`);
      const mapped = readerFor('spotbugs').read(text, { cwd: dir });
      assert.ok(mapped.ok);
      // A.java is found under the second folder; B.java under neither (two folders: no guess), so it stays as written.
      assert.deepEqual([...new Set(mapped.report.diagnostics.map((d) => d.file))], ['B.java', 'src/main/java/A.java']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PMD JSON and XML (recorded): rule names as codes; a file PMD could not process is an error; a rule it could not configure is only shown', () => {
    const json = read(readerFor('pmd'), recorded('pmd', 'report.json'), { cwd: '/home/me/pmd' });
    assert.deepEqual(brief(json), [
      'src/main/java/net/sourceforge/pmd/PMDVersion.java:16:14 pmd ClassNamingConventions error',
      'src/main/java/net/sourceforge/pmd/RuleContext.java:124:9 pmd GuardLogStatement error',
    ]);
    const xml = read(readerFor('pmd'), recorded('pmd', 'report.xml'), { cwd: '/home/pmd/source' });
    assert.deepEqual(brief(xml), [
      'pmd-core/src/main/java/net/sourceforge/pmd/RuleContext.java:124:9 pmd GuardLogStatement error',
      'pmd-core/src/main/java/net/sourceforge/pmd/benchmark/Benchmarker.java:58:9 pmd ForLoopCanBeForeach error',
      'pmd-core/src/test/resources/net/sourceforge/pmd/cpd/files/file_with_ISO-8859-1_encoding.java:0:0 pmd ProcessingError error',
    ]);
    assert.equal(xml.diagnostics[0].message, 'Logger calls should be surrounded by log level guards.');
    assert.deepEqual(xml.all.filter((d) => d.severity === 'info').map((d) => d.code), ['ConfigurationError']);
    assert.equal(read(readerFor('pmd'), recorded('pmd', 'empty.json')).all.length, 0);
    assert.deepEqual(brief(read(readerFor('pmd'), recorded('pmd', 'processing-error.json'))), ['file:0:0 pmd ProcessingError error']);
  });

  it('a finding fixed or added changes the multiset; moving a line does not', () => {
    const before = read(readerFor('checkstyle'), capture('checkstyle', 'errors'));
    const fixed = capture('checkstyle', 'errors').replace(/<error line="3" column="8"[^\n]*\n/, '');
    assert.equal(keys(read(readerFor('checkstyle'), fixed).diagnostics).length, keys(before.diagnostics).length - 1);
    const moved = capture('checkstyle', 'errors').replace('line="15" column="27"', 'line="16" column="27"');
    assert.deepEqual(keys(read(readerFor('checkstyle'), moved).diagnostics), keys(before.diagnostics));
    const added = JSON.parse(capture('phpcs', 'errors'));
    added.files['/home/dev/project/src/Label.php'].messages.push({ message: 'Inline control structures are not allowed', source: 'Generic.ControlStructures.InlineControlStructure.NotAllowed', severity: 5, fixable: true, type: 'ERROR', line: 11, column: 9 });
    assert.equal(read(readerFor('phpcs'), JSON.stringify(added)).diagnostics.length, read(readerFor('phpcs'), capture('phpcs', 'errors')).diagnostics.length + 1);
  });

  it('no new reader claims the others\' captures, nor a crash, a missing program or a usage error', () => {
    const others: [string, string][] = [['eslint', 'errors'], ['pylint', 'errors'], ['mypy', 'errors'], ['gcc', 'errors'], ['govet', 'errors'], ['cargo', 'check-errors'], ['pyright', 'errors'], ['biome', 'errors'], ['oxlint', 'errors']];
    const mine = new Set(['clang-tidy', 'rubocop', 'checkstyle', 'spotbugs', 'pmd', 'phpcs', 'phpstan', 'psalm']);
    for (const [tool, name] of others) assert.ok(!mine.has(scoreReaders(capture(tool, name))[0].reader.format), `${tool}/${name}`);
    for (const [tool, name] of [['clang-tidy', 'not-installed'], ['rubocop', 'not-installed'], ['rubocop', 'config-error'], ['checkstyle', 'config-error'], ['checkstyle', 'not-installed'], ['phpcs', 'config-error'], ['phpcs', 'not-installed']]) {
      assert.ok(scoreReaders(capture(tool, name))[0].score < MIN_SCORE, `${tool}/${name}`);
    }
  });

  it('RuboCop run for real: fixing one offense and adding another changes the witness by exactly those', function () {
    needToolchain('rubocop');
    const dir = tempDir('rubocop-real');
    try {
      fs.cpSync(path.join(REPO, 'test', 'fixtures', 'checkers', 'rubocop'), dir, { recursive: true });
      fs.rmSync(path.join(dir, 'lib', 'ledger', 'broken.rb'));
      const lint = () => {
        const out = spawnSync('sh', ['-c', 'rubocop --format json lib 2>&1'], { cwd: dir, encoding: 'utf8' });
        const r = readCheck({ command: 'rubocop --format json lib', warnings: true }, run(out.stdout, out.status ?? 1), dir);
        assert.ok(r.ok, r.ok ? '' : r.sentence);
        return r.report;
      };
      const before = lint();
      assert.equal(before.format, 'rubocop');
      assert.deepEqual(before.checked, ['lib/ledger/clean.rb', 'lib/ledger/money.rb', 'lib/ledger/rates.rb']);
      const money = path.join(dir, 'lib', 'ledger', 'money.rb');
      fs.writeFileSync(money, fs.readFileSync(money, 'utf8').replace('      unused = 1\n', ''));
      const clean = path.join(dir, 'lib', 'ledger', 'clean.rb');
      fs.writeFileSync(clean, fs.readFileSync(clean, 'utf8').replace("'(none)'", '"(none)"'));
      const after = lint();
      const gone = keys(before.diagnostics).filter((k) => !keys(after.diagnostics).includes(k));
      const come = keys(after.diagnostics).filter((k) => !keys(before.diagnostics).includes(k));
      assert.deepEqual(gone, ['lib/ledger/money.rb|rubocop|Lint/UselessAssignment|Useless assignment to variable - `unused`.']);
      assert.deepEqual(come.map((k) => k.split('|').slice(0, 3).join('|')), ['lib/ledger/clean.rb|rubocop|Style/StringLiterals']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

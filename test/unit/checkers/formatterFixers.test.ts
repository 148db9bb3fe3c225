// The fixers of issue 39's languages (verify/fixers/fixerFamilies.ts, formatterFamilies.ts): clang-format, RuboCop,
// PHP_CodeSniffer, PHP CS Fixer, Spotless (Maven and Gradle) and `dotnet format`, each built from the person's check
// command with the options that choose its rules kept, and offered only where the workspace's own configuration
// enables the tool.
// clang-format, RuboCop and phpcbf run for real below and in fixAutofix.test.ts; PHP CS Fixer, Spotless and
// `dotnet format` are not installable here, so their commands are built from the tools' documented CLIs and only the
// construction, the enabling rule and (for `dotnet format`) the reading of its documented output are tested.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixerOf } from '../../../src/verify/fixers/fixerCommand';
import { ProjectFixers } from '../../../src/verify/fixers/projectFixers';
import { parseCheckSpec } from '../../../src/verify/checkers/checkSpec';
import { readCheck, type CheckSpec } from '../../../src/verify/checkers/commandChecker';
import type { CheckerFormat } from '../../../src/verify/checkers/checkerTypes';
import { formatFromCommand } from '../../../src/verify/checkers/readerChoice';
import { addedSuppressions } from '../../../src/core/edits/suppressions';
import type { RunResult } from '../../../src/base/process/runCommand';
import { needToolchain } from '../support/toolchains';

function workspace(files: Record<string, string>, parent?: string): string {
  const dir = fs.mkdtempSync(path.join(parent ?? os.tmpdir(), 'greenloop-fixer-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

// The RuboCop and PHP_CodeSniffer readers (their formats "rubocop" and "phpcs") are the linters' work: the checks
// name their format here, as `--check "CMD:rubocop"` does once the reader is there.
function spec(check: string, format?: string): CheckSpec {
  return format ? { command: check, format: format as CheckerFormat } : parseCheckSpec(check);
}

function command(check: string | CheckSpec, files: Record<string, string>, fixed: string[] = ['src/a.cpp'], cwd?: string): string {
  const choice = fixerOf(typeof check === 'string' ? spec(check) : check, cwd ?? workspace(files));
  assert.ok(choice.ok, choice.ok ? '' : choice.why);
  return choice.fixer.command(fixed);
}

function why(check: string | CheckSpec, files: Record<string, string>): string {
  const choice = fixerOf(typeof check === 'string' ? spec(check) : check, workspace(files));
  assert.ok(!choice.ok, `expected no fixer, got ${choice.ok ? choice.fixer.command(['x']) : ''}`);
  return choice.why;
}

const run = (output: string, exitCode = 0): RunResult => ({ output, droppedBytes: 0, exitCode, signal: null, timedOut: false, cancelled: false, durationMs: 5, notFound: false });

describe('formatter fixers: clang-format', () => {
  const config = { '.clang-format': 'BasedOnStyle: LLVM\n' };

  it('`--dry-run -Werror` becomes `-i` on the files the errors name; the style options kept, the rest left out', () => {
    assert.strictEqual(command('clang-format --dry-run -Werror src/*.cpp', config, ['src/a.cpp', 'include/a.h']), 'clang-format -i src/a.cpp include/a.h');
    assert.strictEqual(command('clang-format-14 -n --Werror --style=file --fallback-style=Google --ferror-limit=3 src/a.cpp', config), 'clang-format-14 --style=file --fallback-style=Google -i src/a.cpp');
    assert.strictEqual(command('clang-format -style Google --dry-run --Wno-error=unknown -Werror --sort-includes src/a.cpp', config), 'clang-format -style Google --sort-includes -i src/a.cpp');
  });

  it('enabled by a .clang-format or _clang-format in the workspace or a folder above it, as clang-format looks for it', () => {
    assert.match(why('clang-format --dry-run -Werror src/a.cpp', {}), /does not enable clang-format \(no \.clang-format/);
    assert.ok(fixerOf(spec('clang-format --dry-run -Werror a.cpp'), workspace({ '_clang-format': 'BasedOnStyle: LLVM\n' })).ok);
    const parent = workspace(config);
    assert.ok(fixerOf(spec('clang-format --dry-run -Werror a.cpp'), workspace({}, parent)).ok);
  });

  it('`// clang-format off` added to a C or C++ file is refused like any suppression: it hides the code from the check', () => {
    const added = addedSuppressions('src/a.cpp', 'int add(int a, int b) { return a + b; }\n', '// clang-format off\nint  add(int a,int b){return a+b;}\n// clang-format on\n');
    assert.deepStrictEqual(added.map((a) => [a.line, a.directive, a.tools]), [[1, 'clang-format off', ['clang-format']]]);
    assert.deepStrictEqual(addedSuppressions('src/a.h', null, '/* clang-format off */\nint x;\n').map((a) => a.directive), ['clang-format off']);
  });

  it('its check is read as GCC-style lines under its own name; its silence when clean is clean', () => {
    assert.strictEqual(formatFromCommand('clang-format --dry-run -Werror src/*.cpp'), 'gcc');
    assert.strictEqual(formatFromCommand('/usr/bin/clang-format-14 -n src/a.cpp'), 'gcc');
    const output = [
      'src/a.cpp:2:4: error: code should be clang-formatted [-Wclang-format-violations]',
      'int  add(int a,int b){return a+b;}',
      '   ^',
      'src/a.cpp:2:16: error: code should be clang-formatted [-Wclang-format-violations]',
      'int  add(int a,int b){return a+b;}',
      '               ^',
    ].join('\n');
    const read = readCheck({ command: 'clang-format --dry-run -Werror src/*.cpp' }, run(output, 1), '/w');
    assert.ok(read.ok, JSON.stringify(read));
    assert.deepStrictEqual(read.report.diagnostics.map((d) => [d.file, d.line, d.source, d.code]), [['src/a.cpp', 2, 'clang-format', '-Wclang-format-violations'], ['src/a.cpp', 2, 'clang-format', '-Wclang-format-violations']]);
    const clean = readCheck({ command: 'clang-format --dry-run -Werror src/*.cpp' }, run(''), '/w');
    assert.ok(clean.ok && clean.report.diagnostics.length === 0, JSON.stringify(clean));
  });
});

describe('formatter fixers: RuboCop', () => {
  const config = { '.rubocop.yml': 'AllCops:\n  NewCops: disable\n' };

  it('`-a` on the files, with the configuration and the cops chosen kept; the format, output and fail level left out', () => {
    assert.strictEqual(command(spec('rubocop --format json lib', 'rubocop'), config, ['lib/a.rb']), 'rubocop -a lib/a.rb');
    assert.strictEqual(
      command(spec('bundle exec rubocop -f json -c config/rubocop.yml --only Style/StringLiterals,Layout --fail-level W -o out.json -r rubocop-rspec app', 'rubocop'), config, ['app/a.rb']),
      'bundle exec rubocop -c config/rubocop.yml --only Style/StringLiterals,Layout -r rubocop-rspec -a app/a.rb',
    );
    assert.strictEqual(command(spec('bin/rubocop --format=json --except Metrics --lint .', 'rubocop'), config, ['a.rb']), 'bin/rubocop --except Metrics --lint -a a.rb');
  });

  it('the unsafe corrections (`-A`) only when the person\'s check asked for them', () => {
    assert.strictEqual(command(spec('rubocop -A --format json lib', 'rubocop'), config, ['lib/a.rb']), 'rubocop -A lib/a.rb');
    assert.strictEqual(command(spec('rubocop --autocorrect-all --format json lib', 'rubocop'), config, ['lib/a.rb']), 'rubocop -A lib/a.rb');
  });

  it('enabled by .rubocop.yml or rubocop in the Gemfile', () => {
    assert.match(why(spec('rubocop --format json', 'rubocop'), {}), /does not enable RuboCop \(no \.rubocop\.yml, nor rubocop in the Gemfile\)/);
    assert.ok(fixerOf(spec('rubocop --format json', 'rubocop'), workspace({ Gemfile: "source 'https://rubygems.org'\ngem \"rubocop\", require: false\n" })).ok);
    assert.ok(!fixerOf(spec('rubocop --format json', 'rubocop'), workspace({ Gemfile: "gem 'rubocop-ast'\n" })).ok);
  });
});

describe('formatter fixers: PHP_CodeSniffer and PHP CS Fixer', () => {
  const phpcs = { 'phpcs.xml.dist': '<?xml version="1.0"?>\n<ruleset name="app"><rule ref="PSR12"/></ruleset>\n' };

  it('phpcs becomes phpcbf beside it, the standard, sniffs and runtime settings kept, the report left out', () => {
    assert.strictEqual(command(spec('vendor/bin/phpcs --report=json src', 'phpcs'), phpcs, ['src/A.php']), 'vendor/bin/phpcbf src/A.php');
    assert.strictEqual(
      command(spec('vendor/bin/phpcs --report=json -s -p --standard=PSR12 --runtime-set testVersion 8.1 --colors --extensions=php -n src tests', 'phpcs'), phpcs, ['src/A.php']),
      'vendor/bin/phpcbf --standard=PSR12 --runtime-set testVersion 8.1 --extensions=php -n src/A.php',
    );
    assert.strictEqual(command(spec('php phpcs.phar --report json --standard=PSR2 .', 'phpcs'), phpcs, ['A.php']), 'php phpcbf.phar --standard=PSR2 A.php');
  });

  it('phpcbf\'s own exit codes: 1 fixed and 2 left something (3.x), the bits 1, 2, 4 (4.x) are answers; 3, 16 and 64 are failures', () => {
    const choice = fixerOf(spec('phpcs --report=json src', 'phpcs'), workspace(phpcs));
    assert.ok(choice.ok);
    assert.deepStrictEqual([0, 1, 2, 3, 5, 7, 16, 64].map((c) => choice.fixer.failed(c)), [false, false, false, true, false, false, true, true]);
  });

  it('phpcs is enabled by its ruleset file (phpcs.xml, .phpcs.xml and their .dist) or by composer.json', () => {
    for (const file of ['phpcs.xml', 'phpcs.xml.dist', '.phpcs.xml', '.phpcs.xml.dist']) assert.ok(fixerOf(spec('phpcs --report=json src', 'phpcs'), workspace({ [file]: '<ruleset/>' })).ok, file);
    assert.ok(fixerOf(spec('phpcs --report=json src', 'phpcs'), workspace({ 'composer.json': '{"require-dev":{"squizlabs/php_codesniffer":"^3.7"}}' })).ok);
    assert.match(why(spec('phpcs --report=json src', 'phpcs'), { 'composer.json': '{"require":{"php":">=8.1"}}' }), /does not enable PHP_CodeSniffer/);
  });

  it('PHP CS Fixer: `check` or `fix --dry-run` becomes `fix` on the files, its configuration and rules kept (built from its documented CLI)', () => {
    const config = { '.php-cs-fixer.dist.php': '<?php return (new PhpCsFixer\\Config());\n' };
    assert.strictEqual(command('vendor/bin/php-cs-fixer check --format=checkstyle --diff src', config, ['src/A.php']), 'vendor/bin/php-cs-fixer fix src/A.php');
    assert.strictEqual(
      command('php-cs-fixer fix --dry-run --format junit --config=.php-cs-fixer.dist.php --rules=@PSR12 --allow-risky=yes --show-progress=none -v src', config, ['src/A.php', 'src/B.php']),
      'php-cs-fixer fix --config=.php-cs-fixer.dist.php --rules=@PSR12 --allow-risky=yes src/A.php src/B.php',
    );
    assert.ok(fixerOf(spec('php-cs-fixer check src'), workspace({ '.php-cs-fixer.php': '<?php\n' })).ok);
    assert.ok(fixerOf(spec('php-cs-fixer check src'), workspace({ 'composer.json': '{"require-dev":{"friendsofphp/php-cs-fixer":"^3"}}' })).ok);
    assert.match(why('php-cs-fixer check src', {}), /does not enable PHP CS Fixer \(no \.php-cs-fixer\.php/);
    // After a real fix (no dry run) anything but 0 is a failure: 1 is its general error.
    const choice = fixerOf(spec('php-cs-fixer check src'), workspace(config));
    assert.ok(choice.ok && choice.fixer.failed(1) && !choice.fixer.failed(0));
  });
});

describe('formatter fixers: Spotless (built from its documented Maven and Gradle CLIs)', () => {
  const pom = { 'pom.xml': '<project><build><plugins><plugin><groupId>com.diffplug.spotless</groupId><artifactId>spotless-maven-plugin</artifactId></plugin></plugins></build></project>\n' };
  const gradle = { 'build.gradle.kts': 'plugins {\n  java\n  id("com.diffplug.spotless") version "6.25.0"\n}\n' };

  it('Maven: the check goal becomes its apply goal as written, the build\'s options kept, its other goals left out, no files', () => {
    assert.strictEqual(command('mvn -B -q spotless:check', pom), 'mvn -B -q spotless:apply');
    assert.strictEqual(command('./mvnw -pl core -Pci -Dspotless.ratchetFrom=origin/main verify spotless:check', pom), './mvnw -pl core -Pci -Dspotless.ratchetFrom=origin/main spotless:apply');
    assert.strictEqual(command('mvn com.diffplug.spotless:spotless-maven-plugin:2.43.0:check', pom), 'mvn com.diffplug.spotless:spotless-maven-plugin:2.43.0:apply');
  });

  it('Gradle: spotlessCheck (any format, any project) becomes its Apply task', () => {
    assert.strictEqual(command('./gradlew --offline spotlessCheck', gradle), './gradlew --offline spotlessApply');
    assert.strictEqual(command('./gradlew -q :app:spotlessJavaCheck -x test build', gradle), './gradlew -q -x test :app:spotlessJavaApply');
    assert.ok(fixerOf(spec('gradle spotlessCheck'), workspace({ 'build.gradle': "plugins { id 'com.diffplug.spotless' version '6.25.0' }\n" })).ok);
    assert.ok(fixerOf(spec('./gradlew spotlessCheck'), workspace({ 'build.gradle.kts': 'plugins { alias(libs.plugins.spotless) }\n', 'gradle/libs.versions.toml': '[plugins]\nspotless = { id = "com.diffplug.spotless", version = "6.25.0" }\n' })).ok);
  });

  it('enabled by the plugin in the build file; a Maven or Gradle command without Spotless\'s check is no Spotless check', () => {
    assert.match(why('mvn -B spotless:check', { 'pom.xml': '<project/>' }), /does not enable Spotless \(no spotless-maven-plugin in pom\.xml\)/);
    assert.match(why('./gradlew spotlessCheck', { 'build.gradle': "plugins { id 'java' }\n" }), /does not enable Spotless/);
    assert.match(why('mvn -B test-compile', pom), /has no fixer Greenloop knows/);
    assert.match(why('./gradlew compileJava', gradle), /has no fixer Greenloop knows/);
  });
});

describe('formatter fixers: dotnet format (built from its documented CLI)', () => {
  const project = { 'Acme.sln': '', '.editorconfig': 'root = true\n[*.cs]\nindent_style = space\n' };

  it('`--verify-no-changes` left out, the project, subcommand, severities and includes kept, the report left out', () => {
    assert.strictEqual(command('dotnet format --verify-no-changes', project), 'dotnet format');
    assert.strictEqual(command('dotnet format Acme.sln --verify-no-changes --severity warn --report artifacts/format --no-restore', project), 'dotnet format Acme.sln --severity warn --no-restore');
    assert.strictEqual(command('dotnet format whitespace --verify-no-changes --folder --include src/', project), 'dotnet format whitespace --folder --include src/');
  });

  it('enabled by a solution or project file with an .editorconfig (here or above)', () => {
    assert.ok(fixerOf(spec('dotnet format --verify-no-changes'), workspace({ 'App.csproj': '<Project/>', '.editorconfig': 'root = true\n' })).ok);
    assert.ok(fixerOf(spec('dotnet format src/App/App.csproj --verify-no-changes'), workspace({ 'src/App/App.csproj': '<Project/>', '.editorconfig': '' })).ok);
    assert.match(why('dotnet format --verify-no-changes', { 'Acme.sln': '' }), /does not enable dotnet format \(no \.sln or \.csproj with an \.editorconfig\)/);
    assert.match(why('dotnet format --verify-no-changes', { '.editorconfig': '' }), /does not enable dotnet format/);
  });

  it('its check is read as MSBuild lines, its own codes (WHITESPACE) included, under its own name', () => {
    assert.strictEqual(formatFromCommand('dotnet format --verify-no-changes'), 'msbuild');
    // As `dotnet format --verify-no-changes` prints it (dotnet/format issue 1744's report; not run here).
    const output = [
      "Program.cs(4,20): error WHITESPACE: Fix whitespace formatting. Replace 2 characters with '\\n\\n'. [/home/u/app/app.csproj]",
      "Program.cs(10,3): error WHITESPACE: Fix whitespace formatting. Insert '\\t'. [/home/u/app/app.csproj]",
      'Program.cs(12,1): warning IDE0055: Fix formatting [/home/u/app/app.csproj]',
    ].join('\n');
    const read = readCheck({ command: 'dotnet format --verify-no-changes' }, run(output, 2), '/home/u/app');
    assert.ok(read.ok, JSON.stringify(read));
    assert.deepStrictEqual(read.report.diagnostics.map((d) => [d.file, d.line, d.code, d.source]), [['Program.cs', 4, 'WHITESPACE', 'dotnet format'], ['Program.cs', 10, 'WHITESPACE', 'dotnet format']]);
    const clean = readCheck({ command: 'dotnet format --verify-no-changes' }, run(''), '/home/u/app');
    assert.ok(clean.ok && clean.report.diagnostics.length === 0, JSON.stringify(clean));
  });
});

describe('formatter fixers run for real: what an exit code means is the tool\'s own', function () {
  this.timeout(60_000);
  const signal = new AbortController().signal;

  it('phpcbf exits 1 when it fixed the file: no problem reported; exit 3 (a standard not installed) is one', async () => {
    needToolchain('phpcs');
    const dir = workspace({ 'phpcs.xml': '<?xml version="1.0"?>\n<ruleset name="app"><rule ref="PSR12"/></ruleset>\n', 'src/A.php': '<?php\n\nfunction add($a,$b)\n{\n    return $a+$b;\n}\n' });
    const fixed = await new ProjectFixers(dir, [spec('phpcs --report=json src', 'phpcs')]).run([{ check: 'phpcs --report=json src', files: ['src/A.php'] }], { signal });
    assert.deepStrictEqual(fixed.map((c) => [c.tool, c.command, c.exitCode, c.problem]), [['PHP_CodeSniffer', 'phpcbf src/A.php', 1, undefined]]);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'src/A.php'), 'utf8'), '<?php\n\nfunction add($a, $b)\n{\n    return $a + $b;\n}\n');
    const broken = await new ProjectFixers(dir, [spec('phpcs --report=json --standard=NoSuchStandard src', 'phpcs')]).run([{ check: 'phpcs --report=json --standard=NoSuchStandard src', files: ['src/A.php'] }], { signal });
    assert.strictEqual(broken[0].exitCode, 3);
    assert.match(broken[0].problem ?? '', /PHP_CodeSniffer's fixer `phpcbf --standard=NoSuchStandard src\/A\.php` failed \(exit code 3/);
  });

  it('clang-format -i exits 1 when it cannot work (a broken .clang-format): a problem, not a linter\'s "findings remain"', async () => {
    needToolchain('clang-format');
    const dir = workspace({ '.clang-format': 'BasedOnStyle: NoSuchStyle\n', 'src/a.cpp': 'int  f();\n' });
    const ran = await new ProjectFixers(dir, [spec('clang-format --dry-run -Werror src/a.cpp')]).run([{ check: 'clang-format --dry-run -Werror src/a.cpp', files: ['src/a.cpp'] }], { signal });
    assert.strictEqual(ran[0].exitCode, 1);
    assert.match(ran[0].problem ?? '', /clang-format's fixer `clang-format -i src\/a\.cpp` failed \(exit code 1/);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'src/a.cpp'), 'utf8'), 'int  f();\n');
  });
});

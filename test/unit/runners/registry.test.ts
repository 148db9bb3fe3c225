// A runner is one room (src/runners/<name>/), registered in one list (src/runners/registry.ts): every place that knows
// runners reads the list — the formats `greenloop parse` takes, the default protected files, the commands recognised as
// a runner's, the narrowing, the tamper rules, the outside watch — so a runner added to the list appears in each. And
// the rooms' facts are read without their code: the extension's activation does not load a parser.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  formatNames, isTestFunctionName, junitDialectOf, noTestsPatterns, READERS, runnerOfFormat, runnerProtectedGlobs, runnerProtectedParts,
  runnerRegenerated, RUNNERS, suggestedTestCommand, tamperRules, unreadableOutput,
} from '../../../src/runners/registry';
import { junitParserWith } from '../../../src/runners/readers/junit';
import type { Runner } from '../../../src/runners/runner';
import type { OutputParser } from '../../../src/runners/types';
import { FORMATS, PARSERS } from '../../../src/runners/parseOutput';
import { runnerHints } from '../../../src/runners/runnerHint';
import { narrowToTargets } from '../../../src/runners/narrow';
import { PARSE_FLAG } from '../../../src/flags/flagCatalog';
import { DEFAULT_PROTECTED_GLOBS } from '../../../src/session/protectedGlobs';
import { DEFAULT_LOOP_CONFIG } from '../../../src/session/loopDefaults';
import { PROTECTED_PARTS } from '../../../src/core/edits/protectedContent';

const ROOT = path.join(__dirname, '..', '..', '..');

/** A runner of no real tool, as a new room would be written: its facts, and its code behind code(). */
const fakeParser: OutputParser = {
  format: 'fake',
  detect: (text) => (/^FAKE RESULTS$/m.test(text) ? 0.9 : 0),
  parse: () => ({ runner: 'fake', failing: [], tests: [], passedCount: 0, failedCount: 0, skippedCount: 0, loadError: false, diagnostics: [] }),
};
const fake: Runner = {
  name: 'fake',
  formats: ['fake'],
  startsAt: (w, i) => (/(^|\/)fake-run$/.test(w[i]) ? i + 1 : null),
  files: { tests: ['**/*.fake-test'], config: ['**/fake.toml'] },
  parts: [{ file: 'shared.toml', what: 'the [fake] section of shared.toml', extract: (t) => t }],
  tamper: [{ test: /\bfake\.verdict\s*=/, what: 'replaces the fake verdict' }],
  assertionModules: ['fake-assert'],
  regenerated: ['.fake-cache/**'],
  noTests: [/^no fakes here$/m],
  unreadable: (output, exit) => (/^FAKE DOTS$/m.test(output) ? `fake's dots (${exit})` : null),
  testFunction: /^fake_\w+$/,
  junitReports: /<testsuites name="fake-run"/,
  suggestCommand: (cwd) => (fs.existsSync(path.join(cwd, 'fake.toml')) ? { command: 'fake-run --quiet', because: 'fake.toml' } : null),
  code: () => ({
    parsers: [fakeParser],
    narrow: (args, targets) => ({ args: [...args, '--only', ...targets.map((t) => t.id)], files: null, pattern: targets.map((t) => t.id).join(' ') }),
    coverage: () => ({ why: 'fake has no coverage' }),
    junit: { id: (t) => [t.suite, ...t.classname.split('$'), t.name].join(' > '), file: (t) => `src/${t.suite}.fake-test` },
  }),
};
const withFake = [...RUNNERS, fake];

/** Commands two runners start, with the other runners' formats after the first's. */
const SHARED_COMMANDS: Record<string, string[]> = { 'rake test': ['testunit'] };

/** One command each runner of the list is started with: a new runner adds its line. */
const STARTED_BY: Record<string, string> = {
  mocha: 'npx mocha test/', jest: 'jest --ci', vitest: 'vitest run', node: 'node --test test/', pytest: 'python -m pytest -q',
  unittest: 'python3 -m unittest -v', go: 'go test ./...', cargo: 'cargo test',
  ctest: 'cmake --build build && ctest --test-dir build --output-on-failure', gtest: './build/unit --gtest_color=no',
  catch2: './build/checks --reporter console',
  maven: 'mvn -B test',
  gradle: './gradlew test',
  rspec: 'bundle exec rspec', minitest: 'rake test',
  testunit: `ruby -Ilib -Itest/lib -e 'Dir.glob("test/**/test_*.rb").sort.each { |f| require File.expand_path(f) }' -- --ignore-name=test_ractor`,
  phpunit: 'php vendor/bin/phpunit --colors=never', dotnet: 'dotnet test Ledger.sln -c Release',
};

describe('the runners registry: one list, read everywhere', () => {
  it('each runner has its own name and formats, and its code reads exactly the formats its facts name', () => {
    const names = RUNNERS.map((r) => r.name);
    assert.deepEqual(names, [...new Set(names)]);
    const formats = formatNames();
    assert.deepEqual(formats, [...new Set(formats)], 'no format belongs to two runners or readers');
    for (const r of RUNNERS) assert.deepEqual(r.code().parsers.map((p) => p.format), r.formats, r.name);
    for (const r of READERS) assert.equal(r.code().format, r.format);
  });

  it("greenloop parse's --format list and auto-detection are the registry's formats, in its order", () => {
    assert.deepEqual(PARSERS.map((p) => p.format), formatNames());
    assert.deepEqual(FORMATS, ['auto', ...formatNames()]);
    assert.ok(PARSE_FLAG.format.help.includes(`(${['auto', ...formatNames()].join(', ')})`), PARSE_FLAG.format.help);
    assert.deepEqual(formatNames(withFake).slice(-3), ['fake', 'junit', 'tsc'], 'a new runner comes before the readers');
  });

  it("the default protected globs are every runner's test and configuration files, and the settings' default says the same", () => {
    for (const r of RUNNERS) for (const g of [...r.files.tests, ...r.files.config]) assert.ok(DEFAULT_PROTECTED_GLOBS.includes(g), `${r.name}: ${g}`);
    assert.deepEqual(DEFAULT_PROTECTED_GLOBS.slice(0, runnerProtectedGlobs().length), runnerProtectedGlobs());
    assert.deepEqual(DEFAULT_LOOP_CONFIG.protectedGlobs, DEFAULT_PROTECTED_GLOBS);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const manifest = require(path.join(ROOT, 'package.json')).contributes.configuration.properties['greenloop.protectedGlobs'];
    assert.deepEqual(manifest.default, DEFAULT_PROTECTED_GLOBS);
    assert.deepEqual(PROTECTED_PARTS, runnerProtectedParts());
  });

  it('every runner is recognised in a command that starts it, as a hint for its formats and for narrowing', () => {
    assert.deepEqual(Object.keys(STARTED_BY).sort(), RUNNERS.map((r) => r.name).sort(), 'a command for each runner of the list');
    for (const r of RUNNERS) {
      const command = STARTED_BY[r.name];
      // `rake test` starts minitest or test-unit: both are hints, and the output says which it was.
      const sharing = SHARED_COMMANDS[command] ?? [];
      assert.deepEqual(runnerHints(command, null), [...r.formats, ...sharing], command);
      const narrowed = narrowToTargets({ testCommand: command, runner: r.formats[0], targets: [{ id: 'T > a' }], files: [] });
      // Each runner either narrows its own command or says why not; none fails to find itself in it.
      if (!narrowed.ok) assert.doesNotMatch(narrowed.why, /does not run|knows no way/, `${r.name}: ${narrowed.why}`);
    }
  });

  it('a runner added to the list appears everywhere: formats, hints, narrowing, protected files and parts, tamper rules, regenerated files, no-test sentences', () => {
    assert.ok(formatNames(withFake).includes('fake'));
    assert.equal(runnerOfFormat('fake', withFake), fake);
    assert.equal(runnerOfFormat('fake'), undefined, 'the real list is untouched');
    assert.deepEqual(runnerHints('npm test', { test: 'fake-run --quiet' }, withFake), ['fake']);
    const narrowed = narrowToTargets({ testCommand: 'make build && fake-run --quiet', runner: 'fake', targets: [{ id: 'a > b' }], runners: withFake });
    assert.ok(narrowed.ok);
    assert.equal(narrowed.command, "make build && fake-run --quiet --only 'a > b'");
    assert.ok(runnerProtectedGlobs(withFake).includes('**/*.fake-test') && runnerProtectedGlobs(withFake).includes('**/fake.toml'));
    assert.ok(runnerProtectedParts(withFake).includes(fake.parts![0]));
    const rules = tamperRules(withFake);
    assert.ok(rules.rules.includes(fake.tamper![0]) && rules.assertionModules.includes('fake-assert'));
    assert.ok(runnerRegenerated(withFake).includes('.fake-cache/**'));
    assert.ok(noTestsPatterns(withFake).includes(fake.noTests![0]));
    assert.equal(unreadableOutput('FAKE DOTS', 'exit code 1', withFake), "fake's dots (exit code 1)");
    assert.ok(isTestFunctionName('fake_parses', withFake) && !isTestFunctionName('fake_parses'));
    const report = '<testsuites name="fake-run"><testsuite name="Money"><testcase classname="Ops$Add" name="adds"><failure message="no"/></testcase></testsuite></testsuites>';
    const read = junitParserWith((head) => junitDialectOf(head, withFake)).parse(report);
    assert.deepEqual(read.failing.map((f) => [f.id, f.file]), [['Money > Ops > Add > adds', 'src/Money.fake-test']]);
    assert.equal(junitDialectOf(report), null, 'the real list has no fake dialect');
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-fake-'));
    assert.equal(suggestedTestCommand(ws, withFake), null);
    fs.writeFileSync(path.join(ws, 'fake.toml'), '');
    assert.deepEqual(suggestedTestCommand(ws, withFake), { command: 'fake-run --quiet', because: 'fake.toml', runner: 'fake' });
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('Ruby projects get their command: .rspec or spec/ → rspec (bundle exec with a Gemfile), a Rakefile test task → rake test', () => {
    const projects = path.join(ROOT, 'test', 'fixtures', 'projects');
    assert.deepEqual(suggestedTestCommand(path.join(projects, 'ruby-inflect')), { command: 'rspec', because: '.rspec', runner: 'rspec' });
    assert.deepEqual(suggestedTestCommand(path.join(projects, 'ruby-ledger')), { command: 'rake test', because: "Rakefile's test task", runner: 'minitest' });
    // A test-unit project is test-unit's, with its Rakefile's test task or without one (ruby/matrix's way then).
    assert.deepEqual(suggestedTestCommand(path.join(projects, 'ruby-units')), { command: 'rake test', because: "Rakefile's test task and test/ requiring test/unit", runner: 'testunit' });
    const units = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-testunit-'));
    fs.mkdirSync(path.join(units, 'test', 'lib'), { recursive: true });
    fs.writeFileSync(path.join(units, 'test', 'lib', 'helper.rb'), 'require "test/unit"\n');
    fs.writeFileSync(path.join(units, 'test', 'test_a.rb'), "require 'helper'\n");
    const bare = suggestedTestCommand(units);
    assert.equal(bare?.runner, 'testunit');
    assert.match(bare?.command ?? '', /^ruby -Ilib -Itest -e 'Dir\.glob\("test\/\*\*\/\{test_\*,\*_test\}\.rb"\)/);
    fs.rmSync(units, { recursive: true, force: true });
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-ruby-'));
    fs.mkdirSync(path.join(ws, 'spec'));
    fs.writeFileSync(path.join(ws, 'Gemfile'), "gem 'rspec'\n");
    assert.deepEqual(suggestedTestCommand(ws), { command: 'bundle exec rspec', because: 'spec/ and Gemfile', runner: 'rspec' });
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it("shared pieces are listed once however many rooms name them (package.json's test scripts, the JavaScript assertion modules)", () => {
    assert.equal(runnerProtectedParts().filter((p) => p.file === 'package.json').length, 1);
    const { assertionModules } = tamperRules();
    assert.deepEqual(assertionModules, [...new Set(assertionModules)]);
    assert.deepEqual(runnerProtectedGlobs(), [...new Set(runnerProtectedGlobs())]);
  });

  it("the extension's activation (dist/base.js) holds the rooms' facts but none of their code (npm test builds dist/)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const base = Object.keys(require(path.join(ROOT, 'dist', 'base.js')) as Record<string, unknown>);
    assert.ok(base.includes('runners/registry'), base.join(', '));
    const code = base.filter((k) => /^runners\/(?:readers\/|parseOutput$|narrow$|runnerHint$|[^/]+\/(?:code|parser|narrow|coverage)$)/.test(k));
    assert.deepEqual(code, []);
  });
});

// Narrowing a test command to the failing tests, command in, command out: what each runner is given, what the shell
// hands it, and the one sentence given when a command cannot be narrowed.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { narrowToTargets } from '../../../src/runners/narrow';
import type { TargetedRequest } from '../../../src/runners/narrow';
import { targetedCoverage } from '../../../src/core/judge/targetedCoverage';
import type { TargetedRead } from '../../../src/core/judge/targetedCoverage';
import { joinCommand, splitCommand } from '../../../src/base/commandWords';

function narrow(req: Partial<TargetedRequest> & Pick<TargetedRequest, 'testCommand' | 'runner'>): string {
  const t = narrowToTargets({ targets: [{ id: 'math > adds', file: 'test/a.test.js' }], ...req });
  return t.ok ? t.command : `cannot narrow: ${t.why}`;
}

/** The words a real shell passes to a program for this command line. */
function shellWords(command: string): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('narrowing a test command to the failing tests', () => {
  describe('by file and by name, per runner', () => {
    const cases: Array<[string, TargetedRequest['runner'], string]> = [
      ['node --test test/', 'tap', "node --test '--test-name-pattern=^(?:math adds|adds|math > adds)$' test/a.test.js"],
      ['node --test --test-name-pattern=old --test-reporter spec', 'node', "node --test --test-reporter spec '--test-name-pattern=^(?:math adds|adds|math > adds)$' test/a.test.js"],
      ['npx mocha -R dot --grep x test/**/*.js', 'mocha', "npx mocha --reporter spec --grep '^(?:math adds)$' test/a.test.js"],
      ['c8 --reporter lcov mocha --timeout 5000', 'mocha', "c8 --reporter lcov mocha --timeout 5000 --reporter spec --grep '^(?:math adds)$' test/a.test.js"],
      ['npx jest --ci src', 'jest', "npx jest --ci --verbose -t '^(?:math adds)$' --runTestsByPath test/a.test.js"],
      ['CI=1 vitest run --reporter dot', 'vitest', "CI=1 vitest run --reporter=json -t '^(?:math adds)$' test/a.test.js"],
    ];
    for (const [command, runner, expected] of cases) {
      it(`${command} → ${expected}`, () => assert.strictEqual(narrow({ testCommand: command, runner }), expected));
    }

    it('pytest: node ids replace the paths and -k; -rA lists the passing ones', () => {
      const targets = [{ id: 'tests/test_a.py > TestMath > test_adds[a > b]' }, { id: 'tests/test_b.py > test_x' }];
      assert.strictEqual(narrow({ testCommand: 'pytest -q -k calc tests/', runner: 'pytest', targets }),
        "pytest -q -rA 'tests/test_a.py::TestMath::test_adds[a > b]' tests/test_b.py::test_x");
    });

    it('pytest: a test named without its file falls back to -k, and refuses what -k cannot select', () => {
      assert.strictEqual(narrow({ testCommand: 'pytest tests/', runner: 'pytest', targets: [{ id: 'TestMath > test_adds[1]' }] }), "pytest -rA -k test_adds tests/");
      assert.match(narrow({ testCommand: 'pytest', runner: 'pytest', targets: [{ id: 'test-with-dash' }] }), /^cannot narrow: pytest names a test without its file/);
    });

    it('unittest: dotted names from the folder the command runs in, -v added, -q and -k dropped; a fixture runs its class', () => {
      const targets = [
        { id: 'tests/test_calc.py > TestCalc > test_many', file: 'tests/test_calc.py' },
        { id: 'tests/pkg/test_deep.py > TestDeep > setUpClass', file: 'tests/pkg/test_deep.py' },
        { id: 'tests/test_mod.py > setUpModule', file: 'tests/test_mod.py' },
      ];
      const named = 'tests.test_calc.TestCalc.test_many tests.pkg.test_deep.TestDeep tests.test_mod';
      assert.strictEqual(narrow({ testCommand: 'python3 -m unittest', runner: 'unittest', targets }), `python3 -m unittest -v ${named}`);
      assert.strictEqual(narrow({ testCommand: 'python -m unittest -q -b -k calc tests.test_calc', runner: 'unittest', targets }), `python -m unittest -v -b ${named}`);
      // A discovery whose top-level folder is the working one: its names are importable as they are.
      assert.strictEqual(narrow({ testCommand: 'python -m unittest discover -v -s tests -t . -p "test*.py"', runner: 'unittest', targets }), `python -m unittest -v ${named}`);
      // `cd` first: names from there.
      assert.strictEqual(narrow({ testCommand: 'cd tests && python -m unittest', runner: 'unittest', targets: targets.slice(0, 1) }), 'cd tests && python -m unittest -v test_calc.TestCalc.test_many');
    });

    it('unittest: a discovery from another top-level folder keeps discovering, selected with -k; Django\'s labels with -v 2', () => {
      const targets = [{ id: 'tests/test_calc.py > TestCalc > test_many', file: 'tests/test_calc.py' }];
      assert.strictEqual(narrow({ testCommand: 'python3 -m unittest discover -s tests', runner: 'unittest', targets }),
        'python3 -m unittest discover -v -s tests -k test_calc.TestCalc.test_many');
      assert.strictEqual(narrow({ testCommand: 'python manage.py test --settings=app.settings -v 1 app', runner: 'unittest', targets }),
        'python manage.py test --settings=app.settings -v 2 tests.test_calc.TestCalc.test_many');
      assert.match(narrow({ testCommand: 'python -m unittest discover -s tests', runner: 'unittest', targets: [{ id: 'lib/test_x.py > T > test_y', file: 'lib/test_x.py' }] }),
        /^cannot narrow: lib\/test_x\.py is outside tests, where unittest imports its test modules from$/);
      assert.match(narrow({ testCommand: 'python -m unittest', runner: 'unittest', targets: [{ id: 'T > test_y' }] }), /^cannot narrow: "T > test_y" names no Python file/);
    });

    it('go: the package found from the file\'s base name, top-level names anchored and escaped', () => {
      const files = ['go.mod', 'calc/calc_test.go', 'calc/calc.go', 'other/other_test.go'];
      const targets = [{ id: 'TestAdds > one_plus_one', file: 'calc_test.go' }, { id: 'TestDiv', file: 'calc_test.go' }];
      assert.strictEqual(narrow({ testCommand: 'go test -count 1 -run Old ./... -args -x', runner: 'go', targets, files }),
        "go test -count 1 -v -run '^(?:TestAdds|TestDiv)$' ./calc -args -x");
      // A base name found in two folders: the packages stay as the command named them.
      assert.strictEqual(narrow({ testCommand: 'go test ./...', runner: 'go', targets, files: [...files, 'more/calc_test.go'] }),
        "go test -v -run '^(?:TestAdds|TestDiv)$' ./...");
    });

    it('cargo: exact names after --, the command\'s own filter replaced; doc tests refused', () => {
      const targets = [{ id: 'tests > add > handles_negatives' }, { id: 'zero' }];
      assert.strictEqual(narrow({ testCommand: 'cargo test --workspace old -- --test-threads 1 other', runner: 'cargo', targets }),
        'cargo test --workspace -- --test-threads 1 --exact tests::add::handles_negatives zero');
      assert.match(narrow({ testCommand: 'cargo test', runner: 'cargo', targets: [{ id: 'src/lib.rs - add (line 5)' }] }), /doc test/);
    });

    it('ctest: one anchored -R of the names, CMake-regex escaped; the build step stays in front, its own selection replaced', () => {
      const targets = [{ id: 'SplitTest.KeepsEmptyFields' }, { id: 'Semver/Ordering.ComparesByPrecedence/("1.0.0-alpha", "1.0.0")' }, { id: 'title case' }];
      assert.strictEqual(narrow({ testCommand: 'cmake --build build && ctest --test-dir build --output-on-failure -R Split -j2', runner: 'ctest', targets }),
        "cmake --build build && ctest --test-dir build --output-on-failure -j2 -R '^(SplitTest\\.KeepsEmptyFields|Semver/Ordering\\.ComparesByPrecedence/\\(\"1\\.0\\.0-alpha\", \"1\\.0\\.0\"\\)|title case)$'");
    });

    it('gtest: --gtest_filter=Suite.Test:Inst/Suite.Test/N, its own filter replaced, after the build', () => {
      const targets = [{ id: 'SplitTest > KeepsEmptyFields' }, { id: 'Semver/Ordering > ComparesByPrecedence/2' }, { id: 'SplitTyped/0 > SplitsOnDots' }];
      assert.strictEqual(narrow({ testCommand: 'cmake --build build && ./build/tests/semver_tests --gtest_filter=Split* --gtest_color=no', runner: 'gtest', targets }),
        'cmake --build build && ./build/tests/semver_tests --gtest_color=no --gtest_filter=SplitTest.KeepsEmptyFields:Semver/Ordering.ComparesByPrecedence/2:SplitTyped/0.SplitsOnDots');
    });

    it('catch2: the failing test cases by name (every section of each), escaped as test specs; its own specs and -c replaced', () => {
      const targets = [{ id: 'title case > lowers the rest of a word > even after a tab' }, { id: 'title case > capitalises each word' }, { id: 'split, keeps [empty] fields' }];
      assert.strictEqual(narrow({ testCommand: 'cmake --build build && ./build/tests/textkit_tests "[case]" -c x -r console', runner: 'catch2', targets }),
        "cmake --build build && ./build/tests/textkit_tests -r console 'title case,split\\, keeps \\[empty\\] fields'");
    });

    it('rspec: the targets\' spec files and -e with each example\'s own description, reported as --format json', () => {
      const targets = [
        { id: 'Inflect::Words > #pluralize > adds es after a sibilant', file: 'spec/inflect/words_spec.rb' },
        { id: 'Inflect::Numbers > .ordinalize > in the teens > uses th for 11, 12 and 13', file: 'spec/inflect/numbers_spec.rb' },
      ];
      assert.strictEqual(narrow({ testCommand: 'bundle exec rspec --format documentation -e old spec', runner: 'rspec', targets }),
        "bundle exec rspec --format json -e 'adds es after a sibilant' -e 'uses th for 11, 12 and 13' spec/inflect/numbers_spec.rb spec/inflect/words_spec.rb");
      assert.match(narrow({ testCommand: 'rspec', runner: 'rspec', targets: [{ id: 'A > b' }] }), /cannot narrow: RSpec named "A > b" without its spec file/);
    });

    it('minitest: an anchored --name of Class#test with -v, in TESTOPTS single-quoted for the shell rake hands it to; TEST= for one file', () => {
      const targets = [
        { id: 'Ledger::Book::transfer > test_0002_refuses a non-positive amount', file: 'test/ledger/book_spec_test.rb' },
        { id: 'Ledger::MoneyTest > test_parses_negative_amounts', file: 'test/ledger/money_test.rb' },
      ];
      const both = '/^(?:Ledger::Book::transfer#test_0002_refuses a non-positive amount|Ledger::MoneyTest#test_parses_negative_amounts)$/';
      const rake = narrow({ testCommand: 'bundle exec rake test', runner: 'minitest', targets });
      assert.deepEqual(shellWords(rake), ['bundle', 'exec', 'rake', 'test', `TESTOPTS=-v --name='${both}'`]);
      const one = narrow({ testCommand: 'rake test TEST=test/x_test.rb TESTOPTS="--seed=1 -n test_x"', runner: 'minitest', targets: targets.slice(1) });
      assert.deepEqual(shellWords(one), ['rake', 'test', 'TEST=test/ledger/money_test.rb', "TESTOPTS=--seed=1 -v --name='/^(?:Ledger::MoneyTest#test_parses_negative_amounts)$/'"]);
      assert.deepEqual(shellWords(narrow({ testCommand: 'ruby -Itest test/ledger/money_test.rb -n test_old', runner: 'minitest', targets: targets.slice(1) })),
        ['ruby', '-Itest', 'test/ledger/money_test.rb', '-v', '--name=/^(?:Ledger::MoneyTest#test_parses_negative_amounts)$/']);
    });

    it('test-unit: --testcase and --name, anchored, with --runner=xml; after the test file, after `--` (added for a bare -e), or in TESTOPTS', () => {
      const targets = [
        { id: 'TestLength > test_converts_meters_to_kilometers', file: 'test/units/test_length.rb' },
        { id: 'TestTemperature::Parse > test_reads_celsius', file: 'test/units/test_temperature.rb' },
        { id: 'TestMixed::a sub test case > test: fails (inside) it', file: 'test/units/test_length.rb' },
      ];
      const testcase = '--testcase=/\\A(?:TestLength|TestTemperature::Parse|TestMixed::a sub test case)\\z/';
      const name = '--name=/\\A(?:test_converts_meters_to_kilometers|test_reads_celsius|test: fails \\(inside\\) it)\\z/';
      const matrix = `ruby -Ilib -Itest/lib -e 'Dir.glob("test/**/test_*.rb").sort.each { |f| require File.expand_path(f) }'`;
      // ruby/matrix's command: test-unit's options after its `--`; the command's own filters kept (test-unit ANDs them).
      assert.deepEqual(shellWords(narrow({ testCommand: `${matrix} -- --ignore-name=test_ractor -n test_old`, runner: 'testunit', targets })),
        ['ruby', '-Ilib', '-Itest/lib', '-e', 'Dir.glob("test/**/test_*.rb").sort.each { |f| require File.expand_path(f) }', '--', '--ignore-name=test_ractor', '--runner=xml', testcase, name]);
      // Without `--` ruby would read test-unit's options as its own.
      assert.deepEqual(shellWords(narrow({ testCommand: matrix, runner: 'testunit', targets: targets.slice(0, 1) })).slice(5),
        ['--', '--runner=xml', '--testcase=/\\A(?:TestLength)\\z/', '--name=/\\A(?:test_converts_meters_to_kilometers)\\z/']);
      assert.deepEqual(shellWords(narrow({ testCommand: 'bundle exec ruby -Ilib test/units/test_length.rb --runner=console -v', runner: 'testunit', targets: targets.slice(0, 1) })),
        ['bundle', 'exec', 'ruby', '-Ilib', 'test/units/test_length.rb', '-v', '--runner=xml', '--testcase=/\\A(?:TestLength)\\z/', '--name=/\\A(?:test_converts_meters_to_kilometers)\\z/']);
      const rake = shellWords(narrow({ testCommand: 'rake test TESTOPTS="-v --name=old"', runner: 'testunit', targets: targets.slice(0, 2) }));
      assert.deepEqual(rake, ['rake', 'test', "TESTOPTS=-v --runner=xml '--testcase=/\\A(?:TestLength|TestTemperature::Parse)\\z/' '--name=/\\A(?:test_converts_meters_to_kilometers|test_reads_celsius)\\z/'"]);
      assert.deepEqual(shellWords(narrow({ testCommand: 'rake test', runner: 'testunit', targets: targets.slice(1, 2) })).slice(0, 3), ['rake', 'test', 'TEST=test/units/test_temperature.rb']);
      // The XML report names a data-driven test by its method alone: such a target is never narrowed.
      assert.match(narrow({ testCommand: matrix, runner: 'testunit', targets: [{ id: 'TestMixed > test_doubles[large]' }] }), /cannot narrow: .*data-driven test/);
    });

    it('names only when a target\'s file is unknown: the command\'s own files stay', () => {
      assert.strictEqual(narrow({ testCommand: 'npx mocha test/unit', runner: 'mocha', targets: [{ id: 'a > b' }, { id: 'c', file: 'test/c.js' }] }),
        "npx mocha --reporter spec --grep '^(?:a b|c)$' test/unit");
    });

    it('mocha: the file from the test\'s own stack frame when the reporter names none', () => {
      const targets = [{ id: 'a > b', message: 'AssertionError\n    at helper (/w/src/x.js:1:1)\n    at Context.<anonymous> (file:///w/test/unit/a.test.js:4:44)' }];
      assert.strictEqual(narrow({ testCommand: 'mocha test/unit', runner: 'mocha', targets, files: ['src/x.js', 'test/unit/a.test.js'] }),
        "mocha --reporter spec --grep '^(?:a b)$' test/unit/a.test.js");
    });
  });

  describe('package-manager scripts', () => {
    const scripts = { pretest: 'tsc -p .', test: 'npm run test:unit && npm run lint', 'test:unit': 'node --test test/', lint: 'eslint .' };
    it('inlines npm test down to the runner, keeps the pre script that builds, drops what runs after the tests', () => {
      const t = narrowToTargets({ testCommand: 'npm test', runner: 'tap', targets: [{ id: 'x', file: 'test/x.test.js' }], scripts });
      assert.ok(t.ok);
      assert.strictEqual(t.command, "tsc -p . && node --test '--test-name-pattern=^(?:x)$' test/x.test.js");
      assert.deepStrictEqual(t.pathDirs, ['node_modules/.bin']);
    });
    it('passes `npm test -- args` on to the script, and reads pnpm and yarn the same way', () => {
      assert.strictEqual(narrow({ testCommand: 'npm test -- --bail', runner: 'mocha', scripts: { test: 'mocha' } }),
        "mocha --bail --reporter spec --grep '^(?:math adds)$' test/a.test.js");
      assert.strictEqual(narrow({ testCommand: 'pnpm unit', runner: 'jest', scripts: { unit: 'jest' } }),
        "jest --verbose -t '^(?:math adds)$' --runTestsByPath test/a.test.js");
      assert.strictEqual(narrow({ testCommand: 'yarn run test', runner: 'vitest', scripts: { test: 'vitest run' } }),
        "vitest run --reporter=json -t '^(?:math adds)$' test/a.test.js");
    });
    it('says why when the script is missing or calls itself', () => {
      assert.strictEqual(narrow({ testCommand: 'npm test', runner: 'mocha', scripts: {} }), 'cannot narrow: package.json has no "test" script to read');
      assert.match(narrow({ testCommand: 'npm test', runner: 'mocha', scripts: { test: 'npm test' } }), /^cannot narrow: package.json scripts call each other more than \d+ deep$/);
    });
  });

  describe('commands it will not touch', () => {
    const refused: Array<[string, RegExp]> = [
      ['mocha $SPEC', /shell variable/],
      ['mocha | tee log', /pipe/],
      ['mocha; echo done', /`;`/],
      ['mocha > out.txt', /redirection/],
      ['make test', /does not run mocha/],
      ['mocha test/a && mocha test/b', /runs mocha 2 times/],
      ["mocha 'unclosed", /unclosed quote/],
    ];
    for (const [command, why] of refused) {
      it(`${command} → cannot narrow`, () => assert.match(narrow({ testCommand: command, runner: 'mocha' }), why));
    }
    it('no runner known, a runner with no selection, or no targets', () => {
      assert.match(narrow({ testCommand: 'mocha', runner: null }), /runner of the last whole-suite run is not known/);
      assert.match(narrow({ testCommand: 'mvn test', runner: 'junit' }), /no way to select tests for junit/);
      assert.match(narrow({ testCommand: 'mocha', runner: 'mocha', targets: [] }), /no failing tests/);
    });
  });

  it('the shell hands the runner each name exactly: quotes, slashes, brackets, backslashes, unicode', () => {
    const name = `it's "quoted" / [1+1] (ü) \\d $HOME \`x\` ✓`;
    const t = narrowToTargets({ testCommand: 'npx jest', runner: 'jest', targets: [{ id: `suite > ${name}`, file: 'a b/ü.test.js' }] });
    assert.ok(t.ok);
    const words = shellWords(t.command);
    const pattern = words[words.indexOf('-t') + 1];
    assert.strictEqual(words[words.length - 1], 'a b/ü.test.js');
    assert.ok(new RegExp(pattern).test(`suite ${name}`), pattern);
    assert.ok(!new RegExp(pattern).test(`suite ${name}x`), 'anchored at the end');
    assert.ok(!new RegExp(pattern).test(`other suite ${name}`), 'anchored at the start');
    // And the words survive a split and a join.
    const split = splitCommand(t.command);
    assert.ok(split.ok);
    assert.strictEqual(joinCommand(split.commands), t.command);
  });
});

describe('whether a targeted run saw every targeted test', () => {
  const read = (r: Partial<TargetedRead>): TargetedRead => ({ ran: [], skipped: [], failing: [], timedOut: false, unreadable: false, loadError: false, loadErrorFiles: [], stoppedEarly: null, ...r });

  it('a pattern that matched nothing is not "all pass"', () => {
    const c = targetedCoverage(['a', 'b'], read({ ran: [] }));
    assert.deepStrictEqual(c, { complete: false, why: 'the targeted run did not run 2 of the 2 tests', unseen: ['a', 'b'] });
  });
  it('a target listed as skipped did not run', () => {
    const c = targetedCoverage(['a'], read({ ran: ['a', 'z'], skipped: ['a'] }));
    assert.ok(!c.complete);
    assert.deepStrictEqual(c.unseen, ['a']);
  });
  it('a runner that names only failures cannot show the rest ran', () => {
    const c = targetedCoverage(['a', 'b'], read({ ran: null, failing: ['a'] }));
    assert.ok(!c.complete);
    assert.deepStrictEqual(c.unseen, ['b']);
  });
  it('a file that did not load, a timeout and unreadable output say so', () => {
    const c = targetedCoverage(['a'], read({ ran: [], loadError: true, loadErrorFiles: ['test/a.js'] }));
    assert.ok(!c.complete && c.why === 'a test file did not load in the targeted run (test/a.js)');
    assert.ok(!targetedCoverage(['a'], read({ ran: ['a'], timedOut: true })).complete);
    assert.ok(!targetedCoverage(['a'], read({ ran: ['a'], unreadable: true })).complete);
  });
  it('every target seen: which now pass, which still fail (extra tests that ran do not matter)', () => {
    assert.deepStrictEqual(targetedCoverage(['b', 'a', 'a'], read({ ran: ['a', 'b', 'other'], failing: ['b'] })), { complete: true, passing: ['a'], failing: ['b'] });
  });
});

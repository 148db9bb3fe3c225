// PHPUnit narrowed with --filter, command in, command out, then run for real on the mixed suite
// (test/fixtures/runners/phpunit/mixed): exactly the targets run, a data set alone, a method with all of its data sets.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { narrowToTargets } from '../../../src/runners/narrow';
import { phpunitParser } from '../../../src/runners/phpunit/parser';
import { needToolchain } from '../support/toolchains';

const SUITE = path.join(__dirname, '..', '..', 'fixtures', 'runners', 'phpunit', 'mixed');
const D = 'Mixed\\Tests\\DataSetsTest';

function narrow(testCommand: string, ids: string[]): string {
  const t = narrowToTargets({ testCommand, runner: 'phpunit', targets: ids.map((id) => ({ id })) });
  return t.ok ? t.command : `cannot narrow: ${t.why}`;
}

describe('narrowing phpunit to the failing tests', () => {
  it('an anchored --filter regex of Class::method names, a data set named exactly, the old filter and suite dropped', () => {
    assert.equal(
      narrow('vendor/bin/phpunit --testsuite unit --filter Money --colors=never', [`${D} > testNumbered > data set #1`]),
      "vendor/bin/phpunit --colors=never --filter '/^(?:Mixed\\\\Tests\\\\DataSetsTest::testNumbered with data set \\#1)$/'",
    );
    assert.equal(
      narrow('php -d memory_limit=-1 vendor/bin/phpunit tests/Unit', ['A\\BTest > testX']),
      "php -d memory_limit=-1 vendor/bin/phpunit --filter '/^(?:A\\\\BTest::testX(?: with data set .*)?)$/' tests/Unit",
    );
    assert.match(narrow('phpunit --testdox', ['A\\B > Does things']), /^cannot narrow: phpunit --testdox names tests in prose/);
    assert.match(narrow('composer install && phpunit', ['A\\BTest > testX']), /^composer install && phpunit --filter /, 'a step in front stays in front');
  });

  it('run for real: exactly the targeted tests run, quotes, parentheses and "#" in data set names included', function () {
    needToolchain('php', 'phpunit');
    const targets = [
      `${D} > testNamed > data set "with "quotes" inside"`,
      `${D} > testNamed > data set "parens (1, 2) and a: colon"`,
      `${D} > testNamed > data set "#7"`,
      `${D} > testNumbered > data set #2`,
      'Mixed\\Tests\\OutcomesTest > testFails',
      'NoNamespaceTest > testGlobalClassFails',
    ];
    const command = narrow('phpunit', targets);
    const run = spawnSync('sh', ['-c', command], { cwd: SUITE, encoding: 'utf8' });
    const r = phpunitParser.parse(`${run.stdout}${run.stderr}`);
    assert.deepEqual(r.failing.map((f) => f.id).sort(), [...targets].sort(), command);
    assert.equal(r.passedCount, 0, 'no other test ran');
  });

  it("a broken data provider's stand-in test is not selected by --filter: the narrowed run does not list it (and so proves nothing)", function () {
    needToolchain('php', 'phpunit');
    const command = narrow('phpunit', [`${D} > testInvalidProvider`]);
    const run = spawnSync('sh', ['-c', command], { cwd: SUITE, encoding: 'utf8' });
    assert.match(run.stdout, /^No tests executed!$/m);
  });
});

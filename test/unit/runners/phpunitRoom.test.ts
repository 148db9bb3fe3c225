// The phpunit room's facts: the commands that start it, the command a workspace laid out for it suggests, its files.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { phpunit } from '../../../src/runners/phpunit/phpunit';
import { runnerHints } from '../../../src/runners/runnerHint';
import { suggestedTestCommand } from '../../../src/runners/registry';
import { findTestCommand } from '../../../src/verify/testCommand';

describe('the phpunit room', () => {
  it('is started by phpunit, vendor/bin/phpunit, phpunit.phar and php with its own options in front', () => {
    for (const command of ['phpunit', 'vendor/bin/phpunit --testdox', './vendor/bin/phpunit', 'php vendor/bin/phpunit', 'php -d memory_limit=-1 phpunit.phar', 'composer install && vendor/bin/phpunit tests']) {
      assert.deepEqual(runnerHints(command, null), ['phpunit'], command);
    }
    assert.deepEqual(runnerHints('php artisan serve', null), []);
    assert.deepEqual(runnerHints('php -l src/Money.php', null), []);
  });

  it('phpunit.xml or phpunit.xml.dist suggests vendor/bin/phpunit when Composer installed it, else phpunit', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-phpunit-room-'));
    try {
      assert.equal(suggestedTestCommand(dir), null, 'an empty folder suggests nothing');
      fs.writeFileSync(path.join(dir, 'phpunit.xml.dist'), '<phpunit/>\n');
      assert.deepEqual(suggestedTestCommand(dir), { command: 'phpunit', because: 'phpunit.xml.dist', runner: 'phpunit' });
      assert.deepEqual(findTestCommand(dir), { command: 'phpunit', source: "phpunit's command, from phpunit.xml.dist" });
      fs.mkdirSync(path.join(dir, 'vendor', 'bin'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'vendor', 'bin', 'phpunit'), '#!/usr/bin/env php\n');
      assert.deepEqual(phpunit.suggestCommand!(dir), { command: 'vendor/bin/phpunit', because: 'phpunit.xml.dist and vendor/bin/phpunit' });
      // package.json's test script still comes first.
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
      assert.equal(findTestCommand(dir).command, 'npm test');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('protects its tests and configuration; "No tests executed!" is a run of no test', () => {
    assert.deepEqual(phpunit.files, { tests: ['**/tests/**/*Test.php', '**/tests/**'], config: ['**/phpunit.xml', '**/phpunit.xml.dist'] });
    assert.ok(phpunit.noTests!.some((r) => r.test('PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\nNo tests executed!\n')));
  });
});

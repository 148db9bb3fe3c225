// PHPUnit: `phpunit`, `vendor/bin/phpunit`, `php vendor/bin/phpunit`; its default output, --testdox and --log-junit;
// IDs `Class > method > data set #1` (the class as PHP names it, namespace included); a bootstrap, test file or source
// file that does not load; narrowed by --filter with an anchored regex of `Class::method with data set …` names.
import * as fs from 'fs';
import * as path from 'path';
import type { Runner } from '../runner';

const PHPUNIT = /(^|[\\/])phpunit(\.phar)?$/;

export const phpunit: Runner = {
  name: 'phpunit',
  formats: ['phpunit'],
  startsAt: (w, i) => {
    if (PHPUNIT.test(w[i])) return i + 1;
    // `php vendor/bin/phpunit`, `php -d memory_limit=-1 phpunit.phar`: php's own options come before the script.
    if (/(^|\/)php[\d.]*$/.test(w[i])) {
      let j = i + 1;
      while (j < w.length && w[j].startsWith('-')) j += /^-[dcn]$/.test(w[j]) ? 2 : 1;
      if (j < w.length && PHPUNIT.test(w[j])) return j + 1;
    }
    return null;
  },
  files: { tests: ['**/tests/**/*Test.php', '**/tests/**'], config: ['**/phpunit.xml', '**/phpunit.xml.dist'] },
  regenerated: ['**/.phpunit.result.cache', '**/.phpunit.cache/**'],
  // A --filter or --group that selects nothing, an empty suite: exit code 0.
  noTests: [/^No tests executed!$/m],
  testFunction: /^test[A-Z_0-9]\w*$/,
  // Its JUnit log (PHPUnit 9 and 10): suites count assertions and warnings, which no other JUnit writer does.
  junitReports: /<testsuite name="[^"]*"(?: file="[^"]*")? tests="\d+" assertions="\d+" errors="\d+" warnings="\d+"/,
  suggestCommand(cwd) {
    const config = ['phpunit.xml', 'phpunit.xml.dist'].find((f) => fs.existsSync(path.join(cwd, f)));
    if (!config) return null;
    // Composer installs the project's own PHPUnit there; a global one (Debian's phpunit) otherwise.
    const local = fs.existsSync(path.join(cwd, 'vendor', 'bin', 'phpunit'));
    return { command: local ? 'vendor/bin/phpunit' : 'phpunit', because: local ? `${config} and vendor/bin/phpunit` : config };
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).phpunitCode,
};

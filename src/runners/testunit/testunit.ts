// test-unit (Ruby's bundled gem: `require 'test/unit'`, Test::Unit::TestCase): `ruby -Ilib test/test_x.rb`, the
// `ruby -e` that requires every test file (ruby/matrix's `Dir.glob("test/**/test_*.rb")…`, test-unit's options after
// `--`), `ruby -rtest/unit`, `rake test` (shared with minitest: the output tells the two apart); its console and its
// XML report (`--runner=xml`), IDs `Class > test_name`; a test file that does not load is a load error with its
// line; narrowed by `--testcase` and `--name` with `--runner=xml`, which names every test that ran.
import type { Runner } from '../runner';
import { RAKE_TEST_TASK, afterBundleExec, rakeTestTask, usesTestUnit } from '../common/rubyFacts';

const TEST_FILE = /(^|\/)(?:[^/]*_test|test_[^/]*)\.rb$/;

/** `-e CODE` that requires test files or names test-unit (ruby/matrix's `Dir.glob(…).each { |f| require f }`). */
function requiresTests(code: string): boolean {
  return /\bTest::Unit\b|test\/unit/.test(code) || (/\brequire\b/.test(code) && /\btest/.test(code));
}

export const testunit: Runner = {
  name: 'testunit',
  formats: ['testunit'],
  startsAt: (w, i) => {
    const j = afterBundleExec(w, i);
    if (/(^|\/)rake$/.test(w[j] ?? '') && w[j + 1] === 'test') return j + 2;
    if (!/(^|\/)ruby[\d.]*$/.test(w[j] ?? '')) return null;
    // Ruby's own options come first; what marks test-unit is a test file, `-rtest/unit`, or a `-e` that loads tests.
    const rest = w.slice(j + 1);
    const ends = rest.indexOf('--');
    const own = ends < 0 ? rest : rest.slice(0, ends);
    for (let k = 0; k < own.length; k++) {
      const a = own[k];
      if (TEST_FILE.test(a) || a === '-rtest/unit' || (a === '-r' && own[k + 1] === 'test/unit')) return j + 1;
      if (a === '-e' && requiresTests(own[k + 1] ?? '')) return j + 1;
      if (/^-e./.test(a) && requiresTests(a.slice(2))) return j + 1;
    }
    return null;
  },
  // minitest's globs: test-unit's files are named alike (test/test_x.rb); the registry lists each glob once.
  files: { tests: ['**/test/**/*_test.rb', '**/test/**/test_*.rb'], config: [] },
  parts: [RAKE_TEST_TASK],
  suggestCommand: (cwd) => {
    if (!usesTestUnit(cwd)) return null;
    const rakefile = rakeTestTask(cwd);
    if (rakefile) return { command: 'rake test', because: `${rakefile}'s test task and test/ requiring test/unit` };
    // The way ruby/matrix and many gems without a test task run test-unit: every test file required by one process.
    return {
      command: `ruby -Ilib -Itest -e 'Dir.glob("test/**/{test_*,*_test}.rb").sort.each { |f| require File.expand_path(f) }'`,
      because: 'test/ requiring test/unit',
    };
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).testunitCode,
};

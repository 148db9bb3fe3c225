// minitest: `rake test` (Rake::TestTask; `bundle exec rake test`) and `ruby -Itest test/x_test.rb`; its console,
// IDs `Class > test_name`; a test file that does not load is a load error with its line; narrowed by an anchored
// `--name` regex of `Class#test_name` (TESTOPTS through rake) with -v, which names every test that ran.
import type { Runner } from '../runner';
import { RAKE_TEST_TASK, afterBundleExec, rakeTestTask, usesTestUnit } from '../common/rubyFacts';

const TEST_FILE = /(^|\/)(?:[^/]*_test|test_[^/]*)\.rb$/;

export const minitest: Runner = {
  name: 'minitest',
  formats: ['minitest'],
  startsAt: (w, i) => {
    const j = afterBundleExec(w, i);
    if (/(^|\/)rake$/.test(w[j] ?? '') && w[j + 1] === 'test') return j + 2;
    // `ruby -Itest test/x_test.rb`: a test file among its words (ruby's own options come first).
    if (/(^|\/)ruby[\d.]*$/.test(w[j] ?? '') && w.slice(j + 1).some((a) => TEST_FILE.test(a))) return j + 1;
    return null;
  },
  files: { tests: ['**/test/**/*_test.rb', '**/test/**/test_*.rb'], config: [] },
  parts: [RAKE_TEST_TASK],
  suggestCommand: (cwd) => {
    // A test-unit project's `rake test` is test-unit's room's to suggest.
    const rakefile = rakeTestTask(cwd);
    return rakefile && !usesTestUnit(cwd) ? { command: 'rake test', because: `${rakefile}'s test task` } : null;
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).minitestCode,
};

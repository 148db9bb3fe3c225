// minitest: `rake test` (Rake::TestTask; `bundle exec rake test`) and `ruby -Itest test/x_test.rb`; its console,
// IDs `Class > test_name`; a test file that does not load is a load error with its line; narrowed by an anchored
// `--name` regex of `Class#test_name` (TESTOPTS through rake) with -v, which names every test that ran.
import type { Runner } from '../runner';
import { afterBundleExec, rakefileOf, rakeTaskBlocks, readText } from '../common/rubyFacts';

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
  parts: [
    { file: 'Rakefile', what: "the Rakefile's test task", extract: rakeTaskBlocks(/\bRake::TestTask\.new\b/) },
  ],
  suggestCommand: (cwd) => {
    const rakefile = rakefileOf(cwd);
    const text = rakefile ? readText(cwd, rakefile) : null;
    if (!text || !/\bRake::TestTask\.new\b|^\s*task\s*\(?\s*:?['"]?test\b/m.test(text)) return null;
    return { command: 'rake test', because: `${rakefile}'s test task` };
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).minitestCode,
};

// RSpec: `rspec`, `bundle exec rspec`, `bin/rspec`; its console (progress, documentation) and `--format json`, IDs
// `group > group > example` from the spec file's groups (outline.ts); a spec file that does not load is a load
// error with its line; narrowed by file and `-e` with `--format json`, which names every example that ran.
import type { Runner } from '../runner';
import { afterBundleExec, exists, rakeTaskBlocks } from '../common/rubyFacts';

export const rspec: Runner = {
  name: 'rspec',
  formats: ['rspec'],
  startsAt: (w, i) => {
    const j = afterBundleExec(w, i);
    return /(^|\/)rspec$/.test(w[j] ?? '') ? j + 1 : null;
  },
  files: { tests: ['**/spec/**', '**/*_spec.rb'], config: ['**/.rspec', '**/.rspec-local'] },
  parts: [
    { file: 'Rakefile', what: "the Rakefile's RSpec task", extract: rakeTaskBlocks(/\bRSpec::Core::RakeTask\.new\b/) },
  ],
  // `example_status_persistence_file_path`, where projects usually keep it.
  regenerated: ['**/.rspec_status', '**/spec/examples.txt'],
  // A path that matched no spec file; with a file that did not load RSpec says so too, but that is a load error.
  noTests: [/^No examples found\.$(?![\s\S]*\berrors? occurred outside of examples\b)/m],
  // rspec_junit_formatter's reports (`--format RspecJunitFormatter`): one suite named rspec.
  junitReports: /<testsuite name="rspec"[\s>]/,
  suggestCommand: (cwd) => {
    const because = exists(cwd, '.rspec') ? '.rspec' : exists(cwd, 'spec') ? 'spec/' : null;
    if (!because) return null;
    return exists(cwd, 'Gemfile') ? { command: 'bundle exec rspec', because: `${because} and Gemfile` } : { command: 'rspec', because };
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).rspecCode,
};

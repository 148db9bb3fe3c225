// The Ruby rooms' facts: the commands that start RSpec, minitest and test-unit, their protected files, and the Rakefile's test
// task protected by content (the rest of the Rakefile stays the code's).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runnerHints } from '../../../src/runners/runnerHint';
import { protectedPartChange } from '../../../src/core/edits/protectedContent';
import { DEFAULT_PROTECTED_GLOBS } from '../../../src/session/protectedGlobs';
import { ROOT } from '../support/cli';

const RAKEFILE = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'projects', 'ruby-ledger', 'Rakefile'), 'utf8');

describe('the Ruby rooms', () => {
  it('recognise rspec, bundle exec rspec, bin/rspec, rake test, ruby -Itest test/x_test.rb and ruby -e requiring the tests', () => {
    for (const c of ['rspec', 'bundle exec rspec spec/models', 'bin/rspec --fail-fast']) assert.deepEqual(runnerHints(c, null), ['rspec'], c);
    // minitest and test-unit both run this way: both are hints, and the output tells them apart.
    for (const c of ['rake test', 'bundle exec rake test TEST=test/a_test.rb', 'ruby -Itest test/ledger/money_test.rb']) assert.deepEqual(runnerHints(c, null), ['minitest', 'testunit'], c);
    // test-unit alone: ruby/matrix's -e that requires every test file, and `-rtest/unit`.
    for (const c of [
      `ruby -Ilib -Itest/lib -e 'Dir.glob("test/**/test_*.rb").sort.each { |f| require File.expand_path(f) }' -- --ignore-name=test_ractor`,
      'ruby -Ilib -rtest/unit -e 0 -- test',
      `bundle exec ruby -Itest -e 'Test::Unit::AutoRunner.run(true, "test")'`,
    ]) assert.deepEqual(runnerHints(c, null), ['testunit'], c);
    assert.deepEqual(runnerHints('ruby script.rb', null), []);
    assert.deepEqual(runnerHints(`ruby -e 'puts 1'`, null), []);
  });

  it('protect spec/, *_spec.rb, .rspec and the minitest files by default', () => {
    for (const g of ['**/spec/**', '**/*_spec.rb', '**/.rspec', '**/test/**/*_test.rb', '**/test/**/test_*.rb']) assert.ok(DEFAULT_PROTECTED_GLOBS.includes(g), g);
  });

  it("refuse an edit to the Rakefile's test task, and allow one to its other tasks", () => {
    const emptied = RAKEFILE.replace("t.test_files = FileList['test/**/*_test.rb']", "t.test_files = FileList['test/none/*_test.rb']");
    assert.match(protectedPartChange('Rakefile', RAKEFILE, emptied) ?? '', /the Rakefile's test task, which decides what the tests run/);
    assert.equal(protectedPartChange('Rakefile', RAKEFILE, `${RAKEFILE}\ntask :lint do\n  sh 'rubocop'\nend\n`), null);
    const spec = "require 'rspec/core/rake_task'\n\nRSpec::Core::RakeTask.new(:spec) do |t|\n  t.pattern = 'spec/**/*_spec.rb'\nend\n";
    assert.match(protectedPartChange('Rakefile', spec, spec.replace("'spec/**/*_spec.rb'", "'spec/none'")) ?? '', /RSpec task/);
  });
});

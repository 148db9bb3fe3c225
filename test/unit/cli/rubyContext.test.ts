// The context end to end in Ruby (issue 40, item 5): `greenloop fix --max-iterations 1` on a small real RSpec project
// whose spec requires nothing (RSpec loads spec_helper through .rspec, which requires the library) and whose bug is in
// a private method two calls below the one the spec calls, in a file too big to be shown whole. Real rspec runs the
// suite; the scripted model records the first prompt, which holds the bug's line.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, ensureCliBuilt } from '../support/cli';
import { needToolchain } from '../support/toolchains';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer } from '../../support/calcAnswers';

const BUG = "      word.end_with?('s', 'x')";

describe('Ruby: the first prompt of a real fix run holds the bug behind spec_helper and two method calls', function () {
  this.timeout(180_000);
  const made: string[] = [];
  before(() => {
    needToolchain('ruby-rspec');
    ensureCliBuilt();
  });
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('greenloop fix --max-iterations 1 shows Words#sibilant? to the model', async () => {
    const dir = tempDir('ruby-context');
    const state = tempDir('ruby-context-state');
    made.push(dir, state);
    const files: Record<string, string> = {
      '.rspec': '--require spec_helper\n',
      'spec/spec_helper.rb': "require 'inflect'\n\nRSpec.configure do |config|\n  config.order = :defined\nend\n",
      'lib/inflect.rb': "require_relative 'inflect/words'\n\nmodule Inflect\nend\n",
      'lib/inflect/words.rb': [
        'module Inflect',
        '  class Words',
        '    def pluralize(word)',
        '      return "#{word}es" if sibilant?(word)',
        '',
        '      "#{word}s"',
        '    end',
        '',
        filler(),
        '    private',
        '',
        '    def sibilant?(word)',
        BUG,
        '    end',
        '  end',
        'end',
        '',
      ].join('\n'),
      'spec/inflect/words_spec.rb': "RSpec.describe Inflect::Words do\n  it 'adds s' do\n    expect(described_class.new.pluralize('cat')).to eq('cats')\n  end\n\n  it 'adds es after ch' do\n    expect(described_class.new.pluralize('church')).to eq('churches')\n  end\nend\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
    const server = await startFakeOpenAIServer([answer('I have no edit.')]);
    try {
      const res = await runCli(['fix', '--cwd', dir, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream',
        '--tsc', 'off', '--max-iterations', '1', '--state-dir', state, '--json'], { env: { NO_COLOR: '1', TERM: 'dumb' }, timeoutMs: 150_000 });
      const report = JSON.parse(res.stdout);
      assert.deepStrictEqual(report.baseline.failing.length, 1, res.stderr);
      const first = JSON.stringify(server.requests[0]?.body?.messages ?? []);
      assert.ok(first.includes(JSON.stringify(BUG).slice(1, -1)), `the bug line in the first prompt:\n${server.requests[0]?.body?.messages?.map((m: { content: string }) => m.content).join('\n')}`);
    } finally {
      await server.close();
    }
  });
});

/** Methods the failing spec does not reach: the file is too big to be shown whole. */
function filler(): string {
  return Array.from({ length: 70 }, (_, i) => `    def label${i}(name)\n      padded = name.ljust(${i + 4}, '~')\n      padded[0, ${(i % 5) + 2}].upcase\n    end\n`).join('\n');
}

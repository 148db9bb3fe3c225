// Following Ruby from a failing spec or test: require_relative, require with lib/ on the load path, the spec_helper
// RSpec loads through .rspec, and the constants the code names (`Inflect::Words` → lib/inflect/words.rb).
import * as assert from 'assert';
import { TempWorkspace } from './workspace';

describe('import reach: Ruby', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('a spec reaches its helper, the library it requires, and the file of a constant it names', async () => {
    ws.write({
      '.rspec': '--require spec_helper\n',
      'spec/spec_helper.rb': "require 'inflect'\n",
      'lib/inflect.rb': "require_relative 'inflect/version'\nrequire 'json'\n\nmodule Inflect\nend\n",
      'lib/inflect/version.rb': "module Inflect\n  VERSION = '1.0'\nend\n",
      'lib/inflect/words.rb': "module Inflect\n  class Words\n    def pluralize(w) = \"#{w}s\"\n  end\nend\n",
      'lib/inflect/html_safe.rb': "module Inflect\n  class HTMLSafe\n  end\nend\n",
      'spec/inflect/words_spec.rb': "RSpec.describe Inflect::Words do\n  it 'adds s' do\n    expect(Inflect::Words.new.pluralize('cat')).to eq('cats')\n    expect(Inflect::HTMLSafe).to be\n  end\nend\n",
    });
    const reached = await ws.reach(['spec/inflect/words_spec.rb']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), [
      'spec/inflect/words_spec.rb@0', 'lib/inflect/words.rb@1', 'lib/inflect/html_safe.rb@1', 'spec/spec_helper.rb@1', 'lib/inflect.rb@2', 'lib/inflect/version.rb@3',
    ]);
    assert.deepStrictEqual(reached[1]!.symbols, ['Words']);
  });

  it('a minitest test: require_relative up and over, test_helper, and `Money` inside `module Ledger` as Ledger::Money', async () => {
    ws.write({
      'test/test_helper.rb': "require 'minitest/autorun'\n",
      'app/ledger.rb': "module Ledger\nend\n",
      'lib/ledger/money.rb': "module Ledger\n  class Money\n  end\nend\n",
      'lib/money.rb': "class Money # another one, not Ledger's\nend\n",
      'test/ledger/money_test.rb': "require_relative '../../app/ledger'\n\nmodule Ledger\n  class MoneyTest < Minitest::Test\n    def test_new\n      Money.new\n    end\n  end\nend\n",
    });
    assert.deepStrictEqual(await ws.order(['test/ledger/money_test.rb'], 1), ['test/ledger/money_test.rb@0', 'lib/ledger/money.rb@1', 'lib/money.rb@1', 'app/ledger.rb@1', 'test/test_helper.rb@1']);
  });
});

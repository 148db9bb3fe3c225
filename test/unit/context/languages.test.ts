// Java, C and C++, C#, Ruby and PHP read as the others do (issue 40, item 5): for each, a small real project whose bug
// is in a function the failing test reaches only through an import (a Java package, an #include, a composer PSR-4
// map, a `using`, a spec_helper's require) and a method call on a typed receiver, in a file too big to be shown whole.
// The first prompt, built by the real gathering code over the real grammars, holds the bug's line.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { contextProject } from './contextProject';
import type { WitnessSummary } from '../../../src/ports/runState';


describe('new languages read the same way: the bug behind an import and a method call is in the first prompt', function () {
  this.timeout(60_000);
  const project = contextProject('greenloop-languages-');
  const { write, policy, reader, stateWith } = project;

  const firstPrompt = (failures: WitnessSummary['failures']) => project.firstPrompt(stateWith(failures));

  /** Members nothing the failing test reaches calls: they make a file too big to be shown whole. */
  const filler = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join('\n');
  const lineOf = (rel: string, text: string) => fs.readFileSync(path.join(project.root, rel), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

  it('Java: a same-package class used by name, an imported class, `Cart cart = new Cart(); cart.total()` and a static call', async () => {
    write('pom.xml', '<project><modelVersion>4.0.0</modelVersion><groupId>org.shop</groupId><artifactId>shop</artifactId><version>1</version></project>\n');
    write('src/main/java/org/shop/Cart.java', [
      'package org.shop;',
      '',
      'import java.util.ArrayList;',
      'import java.util.List;',
      'import org.shop.pricing.Discounts;',
      '',
      'public class Cart {',
      '    private final List<Integer> items = new ArrayList<>();',
      '',
      '    public void add(int cents) {',
      '        items.add(cents);',
      '    }',
      '',
      '    public int total() {',
      '        return Discounts.apply(subtotal());',
      '    }',
      '',
      '    private int subtotal() {',
      '        return items.stream().mapToInt(Integer::intValue).sum();',
      '    }',
      '',
      filler(60, (i) => `    public String label${i}(String name) {\n        String padded = String.format("%-${i + 4}s", name);\n        return padded.substring(0, ${i % 5 + 2}).toUpperCase();\n    }\n`),
      '}',
      '',
    ].join('\n'));
    write('src/main/java/org/shop/pricing/Discounts.java', [
      'package org.shop.pricing;',
      '',
      'public final class Discounts {',
      '    private Discounts() {}',
      '',
      filler(60, (i) => `    public static int tier${i}(int cents) {\n        int rate = ${i % 9} + cents / 1000;\n        return cents - cents * rate / 100;\n    }\n`),
      '',
      '    public static int apply(int cents) {',
      '        int rate = cents >= 100 ? 10 : 0;',
      '        return cents - cents * rate / 1000;',
      '    }',
      '}',
      '',
    ].join('\n'));
    write('src/test/java/org/shop/CartTest.java', [
      'package org.shop;',
      '',
      'import static org.junit.jupiter.api.Assertions.assertEquals;',
      '',
      'import org.junit.jupiter.api.Test;',
      '',
      'class CartTest {',
      '    @Test',
      '    void takesTenPercentOffAHundred() {',
      '        Cart cart = new Cart();',
      '        cart.add(100);',
      '        assertEquals(90, cart.total());',
      '    }',
      '}',
      '',
    ].join('\n'));
    const prompt = await firstPrompt([{
      id: 'CartTest > takesTenPercentOffAHundred()', file: 'src/test/java/org/shop/CartTest.java',
      message: 'org.opentest4j.AssertionFailedError: expected: <90> but was: <99>\n\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)\n\tat org.shop.CartTest.takesTenPercentOffAHundred(CartTest.java:12)',
    }]);
    assert.ok(prompt.includes('        return cents - cents * rate / 1000;'), `the bug line, in Discounts.apply:\n${prompt}`);
    assert.ok(prompt.includes('        return Discounts.apply(subtotal());'), 'and the method the test calls');
  });

  it('C: `#include "ledger.h"` found through compile_commands.json\'s -I, the header paired with its source', async () => {
    write('include/ledger/ledger.h', '#ifndef LEDGER_H\n#define LEDGER_H\n\nint ledger_balance(const int *entries, int n);\nint ledger_fee(int amount);\n\n#endif\n');
    write('src/ledger.c', [
      '#include "ledger/ledger.h"',
      '',
      filler(60, (i) => `static int pad${i}(int x) {\n    int y = x * ${i + 2};\n    return y % ${i + 3};\n}\n`),
      'int ledger_fee(int amount) {',
      '    return amount / 100;',
      '}',
      '',
      'int ledger_balance(const int *entries, int n) {',
      '    int total = 0;',
      '    for (int i = 1; i < n; i++) total += entries[i];',
      '    return total - ledger_fee(total);',
      '}',
      '',
    ].join('\n'));
    write('tests/test_ledger.c', [
      '#include <assert.h>',
      '#include <ledger/ledger.h>',
      '',
      'static void sums_every_entry(void) {',
      '    int entries[] = {100, 200, 300};',
      '    assert(ledger_balance(entries, 3) == 594);',
      '}',
      '',
      'int main(void) {',
      '    sums_every_entry();',
      '    return 0;',
      '}',
      '',
    ].join('\n'));
    write('build/compile_commands.json', JSON.stringify([
      { directory: path.join(project.root, 'build'), command: `cc -I${path.join(project.root, 'include')} -o CMakeFiles/ledger.dir/src/ledger.c.o -c ${path.join(project.root, 'src/ledger.c')}`, file: path.join(project.root, 'src/ledger.c') },
      { directory: path.join(project.root, 'build'), arguments: ['cc', '-I', '../include', '-c', '../tests/test_ledger.c'], file: '../tests/test_ledger.c' },
    ]));
    const line = lineOf('tests/test_ledger.c', 'assert(ledger_balance');
    const prompt = await firstPrompt([{ id: 'test_ledger', file: 'tests/test_ledger.c', message: `test_ledger: tests/test_ledger.c:${line}: sums_every_entry: Assertion \`ledger_balance(entries, 3) == 594' failed.` }]);
    assert.ok(prompt.includes('    for (int i = 1; i < n; i++) total += entries[i];'), `the bug line, in ledger_balance:\n${prompt}`);
  });

  it('C++: a GoogleTest test, `Account account; account.deposit(…)`, and `this->` inside a method defined outside its class', async () => {
    write('include/bank/account.hpp', '#pragma once\n\nnamespace bank {\n\nclass Account {\n public:\n  void deposit(int cents);\n  int balance() const;\n\n private:\n  int credit(int cents) const;\n  int cents_ = 0;\n};\n\n}  // namespace bank\n');
    write('src/account.cpp', [
      '#include "bank/account.hpp"',
      '',
      'namespace bank {',
      '',
      filler(60, (i) => `static int round${i}(int x) {\n  int y = x * ${i + 2};\n  return y % ${i + 3};\n}\n`),
      'void Account::deposit(int cents) {',
      '  cents_ += this->credit(cents);',
      '}',
      '',
      'int Account::credit(int cents) const {',
      '  return cents > 0 ? cents - 1 : 0;',
      '}',
      '',
      'int Account::balance() const { return cents_; }',
      '',
      '}  // namespace bank',
      '',
    ].join('\n'));
    write('tests/account_test.cpp', '#include <gtest/gtest.h>\n\n#include "bank/account.hpp"\n\nTEST(AccountTest, DepositAddsTheAmount) {\n  bank::Account account;\n  account.deposit(250);\n  EXPECT_EQ(account.balance(), 250);\n}\n');
    const prompt = await firstPrompt([{
      id: 'AccountTest.DepositAddsTheAmount', file: 'tests/account_test.cpp',
      message: 'tests/account_test.cpp:8: Failure\nExpected equality of these values:\n  account.balance()\n    Which is: 249\n  250',
    }]);
    assert.ok(prompt.includes('  return cents > 0 ? cents - 1 : 0;'), `the bug line, in Account::credit:\n${prompt}`);
  });

  it("a typed call: C++ `Version v(1, 2); v.compare(w)` finds Version's compare among sixty-one classes' compare methods", async () => {
    // Sixty other classes' compare methods, longer than the whole budget together, all before Version's in the file.
    const others = Array.from({ length: 60 }, (_, i) => `class Other${i} {\n public:\n  int compare(const Other${i}& o) const;\n  int n = ${i};\n};\n\nint Other${i}::compare(const Other${i}& o) const {\n  int left = n * ${i + 3} + ${i};\n  int right = o.n * ${i + 3} + ${i};\n  if (left == right) return 0;\n  int spread = left > right ? left - right : right - left;\n${Array.from({ length: 8 }, (_, k) => `  spread = spread > ${k * 7 + i} ? spread - ${k + 1} : spread + ${k + 2};`).join('\n')}\n  return left < right ? -spread : spread;\n}\n`).join('\n');
    write('include/semver.hpp', '#pragma once\n\nclass Version {\n public:\n  Version(int major, int minor);\n  int compare(const Version& o) const;\n\n private:\n  int major_, minor_;\n};\n');
    write('src/semver.cpp', `#include "semver.hpp"\n\n${others}\nVersion::Version(int major, int minor) : major_(major), minor_(minor) {}\n\nint Version::compare(const Version& o) const {\n${Array.from({ length: 16 }, (_, k) => `  if (major_ == ${k} && o.major_ != ${k}) return o.major_ > ${k} ? -1 : 1;`).join('\n')}\n  if (major_ != o.major_) return major_ - o.major_;\n  return o.minor_ - minor_;\n}\n\n${filler(120, (i) => `int pad${i}(int x) {\n  return x + ${i};\n}\n`)}`);
    write('tests/semver_test.cpp', '#include <gtest/gtest.h>\n#include "semver.hpp"\n\nTEST(SemverTest, Ordering) {\n  Version v(1, 2);\n  bool lower = v.compare(Version(1, 3)) < 0;\n  EXPECT_TRUE(lower);\n}\n');
    // The failure's words do not say `compare`: only the typed edge tells Version's from the others'.
    const prompt = await firstPrompt([{ id: 'SemverTest.Ordering', file: 'tests/semver_test.cpp', message: 'tests/semver_test.cpp:7: Failure\nValue of: lower\n  Actual: false\nExpected: true' }]);
    assert.ok(prompt.includes('  return o.minor_ - minor_;'), `Version's compare:\n${prompt}`);
  });

  it('C#: `using Ledger.Core;` within the test project\'s <ProjectReference>, and `var book = new Book(); book.Balance()`', async () => {
    write('src/Ledger/Ledger.csproj', '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n');
    write('src/Ledger/Book.cs', [
      'namespace Ledger.Core;',
      '',
      'public class Book',
      '{',
      '    private readonly List<int> _entries = new();',
      '',
      '    public void Add(int cents) => _entries.Add(cents);',
      '',
      '    public int Balance()',
      '    {',
      '        return Fees.AfterFee(_entries.Sum());',
      '    }',
      '',
      filler(60, (i) => `    public string Label${i}(string name)\n    {\n        var padded = name.PadLeft(${i + 4});\n        return padded.Substring(0, ${i % 5 + 2}).ToUpper();\n    }\n`),
      '}',
      '',
    ].join('\n'));
    write('src/Ledger/Fees.cs', [
      'namespace Ledger.Core;',
      '',
      'public static class Fees',
      '{',
      filler(60, (i) => `    public static int Tier${i}(int cents)\n    {\n        var rate = ${i % 9} + cents / 1000;\n        return cents - cents * rate / 100;\n    }\n`),
      '    public static int AfterFee(int cents)',
      '    {',
      '        return cents - cents / 10;',
      '    }',
      '}',
      '',
    ].join('\n'));
    // Another project declares the same namespace and type: the test project does not reference it.
    write('other/Other.csproj', '<Project Sdk="Microsoft.NET.Sdk"></Project>\n');
    write('other/Book.cs', 'namespace Ledger.Core;\n\npublic class Book\n{\n    public int Balance() => -1; // not the one\n}\n');
    write('tests/Ledger.Tests/Ledger.Tests.csproj', '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><ProjectReference Include="..\\..\\src\\Ledger\\Ledger.csproj" /></ItemGroup></Project>\n');
    write('tests/Ledger.Tests/BookTests.cs', 'using Ledger.Core;\nusing Xunit;\n\nnamespace Ledger.Tests;\n\npublic class BookTests\n{\n    [Fact]\n    public void BalanceIsTheSumOfEntries()\n    {\n        var book = new Book();\n        book.Add(250);\n        Assert.Equal(250, book.Balance());\n    }\n}\n');
    const prompt = await firstPrompt([{
      id: 'Ledger.Tests.BookTests.BalanceIsTheSumOfEntries', file: 'tests/Ledger.Tests/BookTests.cs',
      message: `Assert.Equal() Failure: Values differ\nExpected: 250\nActual:   225\n   at Ledger.Tests.BookTests.BalanceIsTheSumOfEntries() in ${project.root}/tests/Ledger.Tests/BookTests.cs:line 13`,
    }]);
    assert.ok(prompt.includes('        return cents - cents / 10;'), `the bug line, in Fees.AfterFee:\n${prompt}`);
    assert.ok(!prompt.includes('// not the one'), 'not the unreferenced project');
  });

  it('Ruby: a spec that requires nothing reaches lib/ through spec_helper and `Inflect::Words.new.pluralize`', async () => {
    write('.rspec', '--require spec_helper\n');
    write('spec/spec_helper.rb', "require 'inflect'\n\nRSpec.configure do |config|\n  config.order = :defined\nend\n");
    write('lib/inflect.rb', "require_relative 'inflect/words'\n\nmodule Inflect\nend\n");
    write('lib/inflect/words.rb', [
      'module Inflect',
      '  class Words',
      '    def pluralize(word)',
      '      return "#{word}es" if sibilant?(word)',
      '      "#{word}s"',
      '    end',
      '',
      '    private',
      '',
      '    def sibilant?(word)',
      "      word.end_with?('s', 'x')",
      '    end',
      '',
      filler(60, (i) => `    def label${i}(name)\n      padded = name.ljust(${i + 4}, '~')\n      padded[0, ${i % 5 + 2}].upcase\n    end\n`),
      '  end',
      'end',
      '',
    ].join('\n'));
    write('spec/inflect/words_spec.rb', "RSpec.describe Inflect::Words do\n  it 'adds es after ch' do\n    expect(Inflect::Words.new.pluralize('church')).to eq('churches')\n  end\nend\n");
    const prompt = await firstPrompt([{
      id: 'Inflect::Words adds es after ch', file: 'spec/inflect/words_spec.rb',
      message: 'expected: "churches"\n     got: "churchs"\n\n(compared using ==)\n# ./spec/inflect/words_spec.rb:3:in `block (2 levels) in <top (required)>\'',
    }]);
    assert.ok(prompt.includes("      word.end_with?('s', 'x')"), `the bug line, in Words#sibilant?:\n${prompt}`);
  });

  it('Ruby: a `private def` method reached through `send(:name, …)` from the method a test-unit test calls', async () => {
    write('lib/grid.rb', [
      'class Grid',
      '  def initialize(rows)',
      '    @rows = rows',
      '  end',
      '',
      '  def transpose',
      '    self.class.empty(size).send(:rebuild_from, self)',
      '  end',
      '',
      '  def self.empty(n)',
      '    new(Array.new(n) { [] })',
      '  end',
      '',
      '  def size',
      '    @rows.size',
      '  end',
      '',
      '  def rows',
      '    @rows',
      '  end',
      '',
      filler(300, (i) => `  def label${i}(name)\n    padded = name.ljust(${i + 4}, '~')\n    padded[0, ${i % 5 + 2}].upcase\n  end\n`),
      '',
      '  private def rebuild_from(src)',
      '    src.rows.first.each_index.map { |j| src.rows.map { |r| r[j + 1] } }',
      '  end',
      'end',
      '',
    ].join('\n'));
    write('test/lib/helper.rb', "require 'test/unit'\nrequire 'grid'\n");
    write('test/test_grid.rb', "require 'helper'\n\nclass TestGrid < Test::Unit::TestCase\n  def test_transpose\n    assert_equal([[1, 3], [2, 4]], Grid.new([[1, 2], [3, 4]]).transpose)\n  end\nend\n");
    const prompt = await firstPrompt([{
      id: 'TestGrid > test_transpose', file: 'test/test_grid.rb',
      message: '<[[1, 3], [2, 4]]> expected but was\n<[[2, 4], [nil, nil]]>\ntest/test_grid.rb:5:in `test_transpose\'',
    }]);
    assert.ok(prompt.includes('    src.rows.first.each_index.map { |j| src.rows.map { |r| r[j + 1] } }'), `the bug line, in Grid#rebuild_from:\n${prompt}`);
  });

  it('PHP: `use Acme\\Money\\Money` through composer.json\'s PSR-4 map, and `$this->` inside the class', async () => {
    write('composer.json', JSON.stringify({ autoload: { 'psr-4': { 'Acme\\Money\\': 'src/' } }, 'autoload-dev': { 'psr-4': { 'Acme\\Money\\Tests\\': 'tests/' } } }, null, 2));
    write('src/Money.php', [
      '<?php',
      '',
      'namespace Acme\\Money;',
      '',
      'final class Money',
      '{',
      '    public function __construct(private int $cents) {}',
      '',
      '    public function split(int $parts): array',
      '    {',
      '        return array_fill(0, $parts, $this->share($parts));',
      '    }',
      '',
      '    private function share(int $parts): int',
      '    {',
      '        return intdiv($this->cents, $parts + 1);',
      '    }',
      '',
      filler(60, (i) => `    public function label${i}(string $name): string\n    {\n        $padded = str_pad($name, ${i + 4}, '~');\n        return strtoupper(substr($padded, 0, ${i % 5 + 2}));\n    }\n`),
      '}',
      '',
    ].join('\n'));
    write('tests/MoneyTest.php', "<?php\n\nnamespace Acme\\Money\\Tests;\n\nuse Acme\\Money\\Money;\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class MoneyTest extends TestCase\n{\n    public function testSplitsEvenly(): void\n    {\n        $money = new Money(300);\n        $this->assertSame([100, 100, 100], $money->split(3));\n    }\n}\n");
    const prompt = await firstPrompt([{
      id: 'Acme\\Money\\Tests\\MoneyTest::testSplitsEvenly', file: 'tests/MoneyTest.php',
      message: `Failed asserting that two arrays are identical.\n\n${project.root}/tests/MoneyTest.php:13`,
    }]);
    assert.ok(prompt.includes('        return intdiv($this->cents, $parts + 1);'), `the bug line, in Money::share:\n${prompt}`);
  });
});

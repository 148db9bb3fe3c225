// Functions, not file heads: the CodeReader cuts real files with the real tree-sitter grammars (VS Code's WASM
// builds) into the enclosing function or class of a line, a failing test's own body with the helpers it calls, the
// file's imports, an outline of the rest and a map of exported signatures — in JavaScript, TypeScript, Python, Go,
// Rust, Java, C and C++, C#, Ruby and PHP.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createCodeReader } from '../../../src/context/codeReader';
import type { CodeRegion } from '../../../src/ports/codeContext';
import { bigSource } from './bigSource';

describe('the code reader cuts files into whole functions with tree-sitter', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-reader-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, lines: string[]) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), `${lines.join('\n')}\n`);
    return lines;
  };
  const reader = () => createCodeReader({ cwd: root });
  const lineOf = (lines: string[], text: string) => lines.findIndex((l) => l.includes(text)) + 1;
  const brief = (regions: CodeRegion[]) => regions.map((r) => `${r.kind} ${r.name ?? ''} ${r.startLine}-${r.endLine}`.replace('  ', ' '));
  /** Each region's text is the file's own lines, whole, so a SEARCH block copied from it matches. */
  const assertWholeLines = (rel: string, regions: CodeRegion[]) => {
    const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
    for (const r of regions) assert.strictEqual(r.text, lines.slice(r.startLine - 1, r.endLine).join('\n'), `${r.kind} ${r.name} is the file's lines`);
  };

  it('a bug at line ~1,550 of an 86 KB JavaScript file: its whole method, with the file\'s requires, nothing else', async () => {
    const big = bigSource();
    fs.mkdirSync(path.join(root, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(root, 'lib/command.js'), big.text);
    assert.ok(big.text.length > 80_000 && big.bugLine > 1500);
    const regions = await reader().regions('lib/command.js', [big.bugLine]);
    assert.deepStrictEqual(brief(regions), [`function parse90 ${big.fn.start}-${big.fn.end}`, 'imports 2-3']);
    assert.match(regions[0]!.text, /const limit = 3; \/\/ the bug/);
    assertWholeLines('lib/command.js', regions);
    const outline = await reader().outline('lib/command.js', false, regions);
    assert.ok(outline.lines.includes('class Command extends EventEmitter') && outline.lines.includes('  parse89(args)') && !outline.lines.includes('  parse90(args)'), outline.lines.slice(0, 5).join('\n'));
    assert.deepStrictEqual((await reader().outline('lib/command.js', true)).lines.filter((l) => !l.startsWith('  ')), ['class Command extends EventEmitter', 'function helper(a, b)']);
  });

  it('TypeScript: a class method, an arrow function held by a const, an exported function; the map holds exports only', async () => {
    const lines = write('src/cart.ts', [
      "import { round } from './money';",
      "import type { Item } from './item';",
      '',
      'export class Cart {',
      '  private items: Item[] = [];',
      '  total(): number {',
      '    return round(this.items.reduce((s, i) => s + i.price, 0));',
      '  }',
      '  private secret(): void {}',
      '}',
      '',
      'const discount = (total: number): number => {',
      '  return total > 100 ? total * 0.9 : total;',
      '};',
      '',
      'export function checkout(cart: Cart): number {',
      '  return discount(cart.total());',
      '}',
    ]);
    const regions = await reader().regions('src/cart.ts', [lineOf(lines, 'reduce'), lineOf(lines, 'total * 0.9'), lineOf(lines, 'discount(cart')]);
    assert.deepStrictEqual(brief(regions), ['function total 6-8', 'function discount 12-14', 'function checkout 16-18', 'imports 1-2']);
    assertWholeLines('src/cart.ts', regions);
    // By name (what a failing test calls, or what the importing code uses): the declarations, methods included, most
    // wanted first (the prompt's budget takes them in this order).
    assert.deepStrictEqual(brief(await reader().regions('src/cart.ts', [], ['discount', 'total', 'nowhere'])), ['function discount 12-14', 'function total 6-8', 'imports 1-2']);
    assert.deepStrictEqual(await reader().regions('src/cart.ts', [], ['nowhere']), []);
    assert.deepStrictEqual((await reader().outline('src/cart.ts', true)).lines, ['export class Cart', '  total(): number', 'export function checkout(cart: Cart): number']);
  });

  it('Python: a method of a class, a decorated function with its decorator', async () => {
    const lines = write('app/cart.py', [
      'import math',
      'from .money import round_cents',
      '',
      'class Cart:',
      '    def __init__(self):',
      '        self.items = []',
      '',
      '    def total(self):',
      '        return round_cents(sum(self.items))',
      '',
      '@cached',
      'def tax(amount):',
      '    return math.floor(amount * 0.2)',
      '',
      'def _private():',
      '    pass',
    ]);
    const regions = await reader().regions('app/cart.py', [lineOf(lines, 'sum(self'), lineOf(lines, '0.2')]);
    assert.deepStrictEqual(brief(regions), ['function total 8-9', 'function tax 11-13', 'imports 1-2']);
    assertWholeLines('app/cart.py', regions);
    assert.deepStrictEqual((await reader().outline('app/cart.py', true)).lines, ['class Cart', '  def total(self)', 'def tax(amount)']);
  });

  it('Go: a method with a receiver and a function; the map holds capitalised names', async () => {
    const lines = write('cart/cart.go', [
      'package cart',
      '',
      'import (',
      '\t"math"',
      ')',
      '',
      'type Cart struct {',
      '\titems []float64',
      '}',
      '',
      'func (c *Cart) Total() float64 {',
      '\tsum := 0.0',
      '\tfor _, i := range c.items {',
      '\t\tsum += i',
      '\t}',
      '\treturn math.Round(sum)',
      '}',
      '',
      'func tax(a float64) float64 {',
      '\treturn a * 0.2',
      '}',
    ]);
    const regions = await reader().regions('cart/cart.go', [lineOf(lines, 'sum += i'), lineOf(lines, '0.2')]);
    assert.deepStrictEqual(brief(regions), ['function Total 11-17', 'function tax 19-21', 'imports 1-5']);
    assertWholeLines('cart/cart.go', regions);
    assert.deepStrictEqual((await reader().outline('cart/cart.go', true)).lines, ['type Cart struct', 'func (c *Cart) Total() float64']);
  });

  it('Rust: a method inside an impl block, a free function; the map holds pub items', async () => {
    const lines = write('src/lib.rs', [
      'use std::collections::HashMap;',
      '',
      'pub struct Cart {',
      '    items: Vec<u32>,',
      '}',
      '',
      'impl Cart {',
      '    pub fn total(&self) -> u32 {',
      '        self.items.iter().sum()',
      '    }',
      '    fn hidden(&self) {}',
      '}',
      '',
      'fn tax(a: u32) -> u32 {',
      '    a / 5',
      '}',
    ]);
    const regions = await reader().regions('src/lib.rs', [lineOf(lines, 'iter().sum'), lineOf(lines, 'a / 5')]);
    assert.deepStrictEqual(brief(regions), ['function total 8-10', 'function tax 14-16', 'imports 1-1']);
    assertWholeLines('src/lib.rs', regions);
    assert.deepStrictEqual((await reader().outline('src/lib.rs', true)).lines, ['pub struct Cart', 'impl Cart', '  pub fn total(&self) -> u32']);
  });

  describe('a failing test contributes its own body and the helpers it calls, not its whole file', () => {
    it('JavaScript: the it() block inside describe, and the helpers it calls (and theirs)', async () => {
      const lines = write('test/cart.test.js', [
        "const assert = require('assert');",
        "const { Cart } = require('../lib/cart');",
        '',
        'function makeCart() { return withItems(new Cart()); }',
        'function withItems(c) { c.add(1); c.add(2); return c; }',
        'function unrelated() { return 42; }',
        '',
        "describe('cart', () => {",
        "  it('totals', () => {",
        '    const c = makeCart();',
        '    assert.equal(c.total(), 3);',
        '  });',
        "  it('is empty', () => {",
        '    assert.equal(new Cart().total(), 0);',
        '  });',
        '});',
      ]);
      const regions = await reader().regions('test/cart.test.js', [lineOf(lines, 'c.total(), 3')]);
      assert.deepStrictEqual(brief(regions), ['test totals 9-12', 'function makeCart 4-4', 'function withItems 5-5', 'imports 1-2']);
      assertWholeLines('test/cart.test.js', regions);
      // A frame on the it( line itself, or on its closing line: the same test, not the describe around it.
      assert.deepStrictEqual(brief(await reader().regions('test/cart.test.js', [lineOf(lines, "it('totals'")])), brief(regions));
      assert.deepStrictEqual(brief(await reader().regions('test/cart.test.js', [12])), brief(regions));
    });

    it('Python: def test_… and the module helper it calls', async () => {
      const lines = write('tests/test_cart.py', [
        'from app.cart import Cart',
        '',
        'def make_cart():',
        '    return Cart()',
        '',
        'def test_total():',
        '    assert make_cart().total() == 3',
        '',
        'def test_other():',
        '    assert True',
      ]);
      const regions = await reader().regions('tests/test_cart.py', [lineOf(lines, '== 3')]);
      assert.deepStrictEqual(brief(regions), ['test test_total 6-7', 'function make_cart 3-4', 'imports 1-1']);
    });

    it('Go: func TestX and its helper', async () => {
      const lines = write('cart/cart_test.go', [
        'package cart',
        '',
        'import "testing"',
        '',
        'func newCart() *Cart { return &Cart{items: []float64{1, 2}} }',
        '',
        'func TestTotal(t *testing.T) {',
        '\tif newCart().Total() != 3 {',
        '\t\tt.Fatal("wrong")',
        '\t}',
        '}',
        '',
        'func TestOther(t *testing.T) {}',
      ]);
      const regions = await reader().regions('cart/cart_test.go', [lineOf(lines, 't.Fatal')]);
      assert.deepStrictEqual(brief(regions), ['test TestTotal 7-11', 'function newCart 5-5', 'imports 1-3']);
    });

    it('Rust: a #[test] fn in mod tests, its attribute with it', async () => {
      const lines = write('src/cart_tests.rs', [
        '#[cfg(test)]',
        'mod tests {',
        '    use super::*;',
        '',
        '    #[test]',
        '    fn totals() {',
        '        assert_eq!(Cart::new().total(), 3);',
        '    }',
        '',
        '    #[test]',
        '    fn other() {}',
        '}',
      ]);
      const regions = await reader().regions('src/cart_tests.rs', [lineOf(lines, 'assert_eq')]);
      assert.deepStrictEqual(brief(regions).slice(0, 1), ['test totals 5-8']);
    });
  });

  it('Java: a method, a test under @Test with the helper method it calls; the map leaves private members out', async () => {
    const lines = write('src/main/java/org/shop/Cart.java', [
      'package org.shop;',
      '',
      'import java.util.List;',
      '',
      'public class Cart {',
      '    private List<Integer> items;',
      '',
      '    public int total() {',
      '        return items.stream().mapToInt(i -> i).sum();',
      '    }',
      '',
      '    private int secret() { return 1; }',
      '}',
    ]);
    assert.deepStrictEqual(brief(await reader().regions('src/main/java/org/shop/Cart.java', [lineOf(lines, 'mapToInt')])), ['function total 8-10', 'imports 1-3']);
    assert.deepStrictEqual((await reader().outline('src/main/java/org/shop/Cart.java', true)).lines, ['public class Cart', '  public int total()']);
    const test = write('src/test/java/org/shop/CartTest.java', ['package org.shop;', '', 'class CartTest {', '    @Test', '    void totals() {', '        assertEquals(3, make().total());', '    }', '', '    Cart make() { return new Cart(); }', '}']);
    const regions = await reader().regions('src/test/java/org/shop/CartTest.java', [lineOf(test, 'assertEquals')]);
    // The helper the test calls is a method of its class: shown with it.
    assert.deepStrictEqual(brief(regions), ['test totals 4-7', 'function make 9-9', 'imports 1-1']);
    assert.deepStrictEqual(regions[0]!.calls, ['assertEquals', 'total', 'make']);
  });

  it('C and C++: a function, a method defined outside its class (inside a namespace), a GoogleTest test; a header\'s map is its prototypes', async () => {
    const lines = write('src/account.cpp', [
      '#include "account.hpp"',
      '',
      'namespace bank {',
      'int Account::credit(int cents) const {',
      '  return cents - 1;',
      '}',
      '}  // namespace bank',
    ]);
    const regions = await reader().regions('src/account.cpp', [lineOf(lines, 'cents - 1')]);
    assert.deepStrictEqual(brief(regions), ['function credit 4-6', 'imports 1-1']);
    write('src/ledger.h', ['#pragma once', 'int ledger_balance(const int *entries, int n);', 'static inline int twice(int x) { return 2 * x; }']);
    assert.deepStrictEqual((await reader().outline('src/ledger.h', true)).lines, ['int ledger_balance(const int *entries, int n)']);
    const test = write('tests/account_test.cpp', ['#include <gtest/gtest.h>', '', 'TEST(AccountTest, Credits) {', '  EXPECT_EQ(bank::Account().credit(2), 2);', '}']);
    assert.deepStrictEqual(brief(await reader().regions('tests/account_test.cpp', [lineOf(test, 'EXPECT_EQ')])), ['test TEST 3-5', 'imports 1-1']);
  });

  it('C#: a method inside a namespace block, an xUnit [Fact]; the map of a file-scoped namespace', async () => {
    const lines = write('src/Book.cs', ['using System;', '', 'namespace Ledger.Core', '{', '    public class Book', '    {', '        public int Balance()', '        {', '            return 1;', '        }', '        private int Secret() => 2;', '    }', '}']);
    assert.deepStrictEqual(brief(await reader().regions('src/Book.cs', [lineOf(lines, 'return 1')])), ['function Balance 7-10', 'imports 1-1']);
    assert.deepStrictEqual((await reader().outline('src/Book.cs', true)).lines, ['public class Book', '  public int Balance()']);
    const test = write('tests/BookTests.cs', ['namespace Ledger.Tests;', '', 'public class BookTests', '{', '    [Fact]', '    public void Balances()', '    {', '        Assert.Equal(1, new Book().Balance());', '    }', '}']);
    assert.deepStrictEqual(brief(await reader().regions('tests/BookTests.cs', [lineOf(test, 'Assert.Equal')])), ['test Balances 5-9', 'imports 1-1']);
  });

  it('Ruby: a method inside a module\'s class, an RSpec example, a minitest method; the map leaves what follows `private` out', async () => {
    const lines = write('lib/inflect/words.rb', ["require 'set'", '', 'module Inflect', '  class Words', '    def pluralize(word)', '      "#{word}s"', '    end', '', '    private', '', '    def secret = 1', '  end', 'end']);
    assert.deepStrictEqual(brief(await reader().regions('lib/inflect/words.rb', [lineOf(lines, '"#{word}s"')])), ['function pluralize 5-7', 'imports 1-1']);
    assert.deepStrictEqual((await reader().outline('lib/inflect/words.rb', true)).lines, ['class Words', '  def pluralize(word)']);
    const spec = write('spec/words_spec.rb', ['RSpec.describe Inflect::Words do', "  it 'adds s' do", "    expect(described_class.new.pluralize('cat')).to eq('cats')", '  end', 'end']);
    const regions = await reader().regions('spec/words_spec.rb', [lineOf(spec, 'expect(')]);
    assert.deepStrictEqual(brief(regions), ['test adds s 2-4']);
    assert.ok(regions[0]!.calls?.includes('pluralize'), JSON.stringify(regions[0]!.calls));
    const test = write('test/words_test.rb', ['class WordsTest < Minitest::Test', '  def test_adds_s', "    assert_equal 'cats', Inflect::Words.new.pluralize('cat')", '  end', 'end']);
    assert.deepStrictEqual(brief(await reader().regions('test/words_test.rb', [lineOf(test, 'assert_equal')])), ['test test_adds_s 2-4']);
  });

  it('PHP: a method inside a namespaced class, a PHPUnit test method; the map leaves private methods out', async () => {
    const lines = write('src/Money.php', ['<?php', '', 'namespace Acme\\Money;', '', 'use InvalidArgumentException;', '', 'final class Money', '{', '    public function split(int $parts): array', '    {', '        return [$this->share($parts)];', '    }', '', '    private function share(int $parts): int', '    {', '        return 1;', '    }', '}']);
    assert.deepStrictEqual(brief(await reader().regions('src/Money.php', [lineOf(lines, 'return 1')])), ['function share 14-17', 'imports 3-5']);
    assert.deepStrictEqual(await reader().regions('src/Money.php', [lineOf(lines, '$this->share')]).then((r) => r[0]!.refs?.includes('Money.share')), true);
    assert.deepStrictEqual((await reader().outline('src/Money.php', true)).lines, ['final class Money', '  public function split(int $parts): array']);
    const test = write('tests/MoneyTest.php', ['<?php', '', 'final class MoneyTest extends TestCase', '{', '    public function testSplits(): void', '    {', '        $this->assertSame([1], (new Money(1))->split(1));', '    }', '}']);
    assert.deepStrictEqual(brief(await reader().regions('tests/MoneyTest.php', [lineOf(test, 'assertSame')])), ['test testSplits 5-8']);
  });

  it('a file it cannot cut gives nothing, so the prompt shows a window of lines instead: no grammar, or not in the workspace', async () => {
    write('lib/cart.lua', ['local Cart = {}', 'function Cart.total()', '  return 1', 'end', 'return Cart']);
    assert.deepStrictEqual(await reader().regions('lib/cart.lua', [3]), []);
    assert.deepStrictEqual(await reader().regions('../outside.js', [1]), []);
    assert.deepStrictEqual((await reader().outline('lib/cart.lua', false)).lines, []);
  });

  it('a syntax error inside the function: a window of lines around the line, still whole lines', async () => {
    const lines = write('lib/broken.js', ['function ok() {', '  return 1;', '}', '', 'function broken(a) {', '  return a +* 2;', '}']);
    const regions = await reader().regions('lib/broken.js', [lineOf(lines, '+*')]);
    assert.ok(regions.length >= 1 && regions.some((r) => r.text.includes('return a +* 2;')), JSON.stringify(regions));
    assertWholeLines('lib/broken.js', regions);
  });
});

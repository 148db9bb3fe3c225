'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { Cart } = require('../src/cart');
const { formatPrice } = require('../src/format');

describe('Cart', () => {
  it('starts empty', () => {
    assert.equal(new Cart().total(), 0);
  });

  it('adds the same item twice as one line', () => {
    const cart = new Cart().add('apple', 50).add('apple', 50);
    assert.equal(cart.lines.length, 1);
  });

  describe('total', () => {
    it('multiplies price by quantity', () => {
      assert.equal(new Cart().add('pear', 120, 3).total(), 360);
    });

    it('applies a percentage discount', () => {
      assert.equal(new Cart().add('pear', 1000, 1).totalWithDiscount(10), 900);
    });
  });
});

describe('formatPrice', () => {
  it('formats cents as dollars', () => {
    assert.equal(formatPrice(1234), '$12.34');
  });
});

// @ts-check
'use strict';

/** @typedef {{ sku: string, price: number, quantity: number }} Line */

class Cart {
  constructor() {
    /** @type {Line[]} */
    this.lines = [];
  }

  /**
   * @param {string} sku
   * @param {number} price unit price in cents
   * @param {number} [quantity]
   */
  add(sku, price, quantity = 1) {
    const existing = this.lines.find((l) => l.sku === sku);
    if (existing) existing.quantity += quantity;
    else this.lines.push({ sku, price, quantity });
    return this;
  }

  /** Sum of price × quantity, in cents. */
  total() {
    return this.lines.reduce((sum, line) => sum + line.price, 0);
  }

  /** @param {number} percent e.g. 10 for 10 % off */
  totalWithDiscount(percent) {
    return Math.round(this.total() * (1 - percent));
  }
}

module.exports = { Cart };

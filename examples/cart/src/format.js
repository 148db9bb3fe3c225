// @ts-check
'use strict';

/**
 * Formats cents as a price label, e.g. 1234 → "$12.34".
 * @param {number} cents
 * @returns {string}
 */
function formatPrice(cents) {
  const dollars = cents / 100;
  return dollars;
}

module.exports = { formatPrice };

// An ~80 KB JavaScript library like commander's lib/command.js: many methods in one class, the bug far past any
// head cut (about line 1,550 of 86 KB), for the tests of the code context.
export interface BigSource {
  text: string;
  /** The 1-based line of the wrong constant, inside method `parse90`. */
  bugLine: number;
  /** Lines where `parse90` starts and ends. */
  fn: { start: number; end: number };
}

export function bigSource(): BigSource {
  const lines: string[] = ["'use strict';", "const path = require('path');", "const { EventEmitter } = require('events');", '', 'class Command extends EventEmitter {'];
  let bugLine = 0;
  const fn = { start: 0, end: 0 };
  for (let i = 0; i < 100; i++) {
    if (i === 90) fn.start = lines.length + 1;
    lines.push(`  parse${i}(args) {`, '    const out = [];');
    for (let j = 0; j < 11; j++) lines.push(`    if (args.length > ${j}) out.push(String(args[${j}]).padStart(${j + 2}, '0'));`);
    if (i === 90) {
      bugLine = lines.length + 1;
      lines.push('    const limit = 3; // the bug: should be 4');
    } else lines.push(`    const limit = ${i};`);
    lines.push('    return out.slice(0, limit);', '  }', '');
    if (i === 90) fn.end = lines.length - 1;
  }
  lines.push('}', '', 'function helper(a, b) {', '  return a + b;', '}', '', 'module.exports = { Command, helper };', '');
  return { text: lines.join('\n'), bugLine, fn };
}

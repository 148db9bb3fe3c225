// The code a failing test reaches through imports, through the real bundled CLI: a test that does `require('..')`
// reaches index.js and, two hops on, lib/charset.js, where the bug is and no stack frame points (negotiator's shape).
// The first prompt shows the buggy function; the model's SEARCH block copied from it applies and the run goes green.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';

const BUG = '  return parseAccept(accept).filter(function (c) { return c.q < 0; })';
const CHARSET = [
  "'use strict';",
  'module.exports = preferredCharsets;',
  '',
  'function parseAccept(accept) {',
  "  return accept.split(',').map(function (s) {",
  "    var p = s.trim().split(';q=');",
  '    return { charset: p[0], q: p.length > 1 ? Number(p[1]) : 1 };',
  '  });',
  '}',
  '',
  'function preferredCharsets(accept) {',
  BUG,
  '    .sort(function (a, b) { return b.q - a.q; })',
  '    .map(function (c) { return c.charset; });',
  '}',
  '',
].join('\n');
const INDEX = [
  "'use strict';",
  "var preferredCharsets = require('./lib/charset');",
  'module.exports = Negotiator;',
  'function Negotiator(request) { this.request = request; }',
  "Negotiator.prototype.charsets = function charsets() { return preferredCharsets(this.request.headers['accept-charset'] || '*'); };",
  '',
].join('\n');
const TEST = [
  "const { test } = require('node:test');",
  "const assert = require('node:assert');",
  "const Negotiator = require('..');",
  '',
  "test('charsets by preference', () => {",
  "  assert.deepStrictEqual(new Negotiator({ headers: { 'accept-charset': 'utf-8;q=0.5, iso-8859-1' } }).charsets(), ['iso-8859-1', 'utf-8']);",
  '});',
  '',
].join('\n');

describe("greenloop fix: the file a test reaches through require('..') and a second hop is in the first prompt (real CLI)", function () {
  this.timeout(180_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
    for (const f of ['src/calc.js', 'test/calc.test.js']) fs.rmSync(path.join(h.project, f));
    h.write('index.js', INDEX);
    h.write('lib/charset.js', CHARSET);
    h.write('test/charset.test.js', TEST);
  });
  afterEach(async () => {
    await h.close();
  });

  it('shows lib/charset.js, which no stack frame names, and a SEARCH copied from it fixes the run', async () => {
    const fix = edit('lib/charset.js', BUG, '  return parseAccept(accept).filter(function (c) { return c.q > 0; })', 'preferredCharsets keeps the refused charsets.');
    const res = await h.fix([answer(fix)]);
    assert.strictEqual(res.code, 0, res.stderr);
    const prompt = h.prompt(0);
    assert.ok(prompt.includes(BUG), 'the buggy line of lib/charset.js is shown');
    assert.ok(prompt.includes('Negotiator.prototype.charsets'), 'index.js, one hop away, is shown');
    assert.strictEqual(res.report.outcome, 'green');
  });
});

// Failures anywhere in a huge output are found: the verifier reads the whole stream (spooled to disk past a
// megabyte), not the 64 KB head and 1 MB tail it keeps for prompts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { CommandVerifier } from '../../src/verify/commandVerifier';
import { OutputSpool } from '../../src/verify/outputSpool';
import { parseSpool } from '../../src/verify/parseOutput';
import { ROOT, tempDir } from './support/cli';

describe('huge test outputs', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDir('huge');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds a failure 1.5 MB into a 4 MB real mocha TAP run, and the last one, and every passing test', async () => {
    // mocha's TAP reporter prints each result as the test ends, between the tests' own console output.
    const noise = (mb: number) => `const line = 'x'.repeat(199); for (let i = 0; i < ${mb * 5000}; i++) console.log(line);`;
    fs.writeFileSync(path.join(dir, 'a.test.js'), [
      "const assert = require('node:assert/strict');",
      `it('noise before', () => { ${noise(1.5)} });`,
      "it('fails in the middle', () => assert.equal(1, 2));",
      `it('noise after', () => { ${noise(2.5)} });`,
      "it('fails at the end', () => assert.equal(3, 4));",
      ...Array.from({ length: 50 }, (_, i) => `it('passes ${i}', () => {});`),
      '',
    ].join('\n'));
    const mocha = path.join(ROOT, 'node_modules', '.bin', 'mocha');
    const v = new CommandVerifier({ cwd: dir, testCommand: `"${mocha}" --reporter tap a.test.js`, tsc: 'off', timeoutMs: 60_000 });
    const w = await v.verify();
    assert.deepStrictEqual(w.failing, ['fails at the end', 'fails in the middle']);
    assert.strictEqual(w.passedCount, 52);
    assert.strictEqual(w.ran?.length, 54);
    assert.strictEqual(w.loadError, false);
    assert.ok(w.outputExcerpt.length < 10_000, 'the prompt still gets only an excerpt');
  });

  it('keeps at most a megabyte in memory and the rest on disk, removed afterwards', async () => {
    const spool = new OutputSpool(1000);
    for (let i = 0; i < 500; i++) spool.write(`ok ${i + 1} - test ${i}\n`);
    spool.write('1..500\n');
    assert.strictEqual(spool.spilled, true);
    const parsed = await parseSpool(spool, 'auto');
    assert.strictEqual(parsed.runner, 'tap');
    assert.strictEqual(parsed.passedCount, 500);
    spool.dispose();
    assert.strictEqual(spool.spilled, false);
  });
});

// Failures anywhere in a huge output are found: the verifier reads the whole stream (spooled to disk past a
// megabyte), not the 64 KB head and 1 MB tail it keeps for prompts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import * as vm from 'vm';
import { CommandVerifier } from '../../src/verify/commandVerifier';
import { OutputSpool } from '../../src/verify/outputSpool';
import { parseSpool } from '../../src/runners/parseOutput';
import { tapLines } from '../../src/runners/readers/tap';
import { MAX_MESSAGE_CHARS } from '../../src/runners/common/lineParser';
import { MAX_ID_CHARS } from '../../src/runners/common/reportedTests';
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

  it('reads a flat TAP run of 150,000 tests (too many to pass as arguments to one call)', async () => {
    const spool = new OutputSpool();
    spool.write('TAP version 13\n');
    for (let i = 1; i <= 150_000; i++) spool.write(`ok ${i} - case ${i}\n`);
    spool.write('1..150000\n');
    try {
      const parsed = await parseSpool(spool, 'auto');
      assert.strictEqual(parsed.passedCount, 150_000);
      assert.strictEqual(parsed.tests?.length, 150_000);
      assert.strictEqual(parsed.loadError, false);
    } finally {
      spool.dispose();
    }
  });

  it('holds what the parser keeps of a 40 MB output, not the output: a kept title holds no chunk of it', async () => {
    // 4,000 tests, one every 10 KB of log: a title cut from each 64 KB chunk read back would keep every chunk alive
    // until the parse ends (and its peak lifts the heap for every later run).
    const gc = exposedGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const spool = new OutputSpool();
    const log = `# request served from cache in the usual way ${'.'.repeat(53)}\n`.repeat(100);
    spool.write('TAP version 13\n');
    for (let i = 1; i <= 4000; i++) spool.write(`${log}ok ${i} - case ${i} answers from the cache\n`);
    spool.write('1..4000\n');
    const reader = tapLines();
    try {
      await spool.forEachLine((line) => reader.push(line));
    } finally {
      spool.dispose();
    }
    gc();
    const heldMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    assert.strictEqual(reader.finish().tests?.length, 4000);
    assert.ok(heldMb < 8, `the parser's state for 4,000 tests holds ${heldMb.toFixed(1)} MB (the output was 40 MB)`);
  });

  it('holds one entry for a test its 2,000,000 lines all name, not one per line', async () => {
    const gc = exposedGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const spool = new OutputSpool();
    const line = 'ok 1 - line of output\n'.repeat(10_000);
    for (let i = 0; i < 200; i++) spool.write(line);
    spool.write('not ok 2 - the last line\n');
    const reader = tapLines();
    try {
      await spool.forEachLine((l) => reader.push(l));
    } finally {
      spool.dispose();
    }
    gc();
    const heldMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    const parsed = reader.finish();
    assert.deepStrictEqual(parsed.tests, [{ id: 'line of output', status: 'passed' }, { id: 'the last line', status: 'failed' }]);
    assert.strictEqual(parsed.passedCount, 2_000_000, 'every report is still counted');
    assert.ok(heldMb < 8, `the parser's state for one test reported 2,000,000 times holds ${heldMb.toFixed(1)} MB`);
  });

  it('cuts a 20 MB title and a 20 MB failure message as it reads them: bounded per test, two long titles still two tests', async () => {
    const spool = new OutputSpool();
    const long = 'x'.repeat(20 * 1024 * 1024);
    spool.write(`TAP version 13\nok 1 - ${long} one\nnot ok 2 - ${long} two\n  ---\n  message: '${long}'\n  ...\n1..2\n`);
    try {
      const parsed = await parseSpool(spool, 'auto');
      const ids = (parsed.tests ?? []).map((t) => t.id);
      assert.strictEqual(ids.length, 2);
      assert.notStrictEqual(ids[0], ids[1]);
      for (const id of ids) assert.ok(id.length <= MAX_ID_CHARS, `an ID of ${id.length} characters`);
      assert.deepStrictEqual(parsed.failing.map((f) => f.id), [ids[1]]);
      assert.ok(parsed.failing[0].message.length < MAX_MESSAGE_CHARS + 100, `a message of ${parsed.failing[0].message.length} characters`);
    } finally {
      spool.dispose();
    }
  });

  it('hands back a recent run\'s list of tests when a run names the same ones, so attempts share one copy', async () => {
    fs.writeFileSync(path.join(dir, 'a.test.js'), Array.from({ length: 200 }, (_, i) => `it('case ${i}', () => {});`).join('\n'));
    const mocha = path.join(ROOT, 'node_modules', '.bin', 'mocha');
    const v = new CommandVerifier({ cwd: dir, testCommand: `"${mocha}" --reporter tap a.test.js`, tsc: 'off', timeoutMs: 60_000 });
    const first = await v.verify();
    const second = await v.verify();
    assert.strictEqual(first.ran?.length, 200);
    assert.strictEqual(second.ran, first.ran, 'one array for both runs');
    fs.appendFileSync(path.join(dir, 'a.test.js'), "\nit('a new case', () => {});\n");
    const third = await v.verify();
    assert.strictEqual(third.ran?.length, 201);
    assert.notStrictEqual(third.ran, first.ran);
    // An attempt rolled back, then a run of the tests the first ones named: the first list again, not a copy.
    fs.writeFileSync(path.join(dir, 'a.test.js'), Array.from({ length: 200 }, (_, i) => `it('case ${i}', () => {});`).join('\n'));
    const fourth = await v.verify();
    assert.strictEqual(fourth.ran, first.ran, 'the list of two runs before');
  });
});

/** The collector, to measure what is still reachable rather than what was merely not collected yet. */
function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

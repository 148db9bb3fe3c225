// `greenloop parse FILE` and `greenloop verify` on a command that prints FILE must tell the same story: the same
// failing IDs (once each) and the same load error, for every output captured from a real runner.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parseOutput } from '../../src/runners/parseOutput';
import { CommandVerifier, testIdNormalizer } from '../../src/verify/commandVerifier';
import { tempDir } from './support/cli';

const CAPTURED = path.join(__dirname, '..', 'fixtures', 'captured');
const captures = fs.readdirSync(CAPTURED).flatMap((runner) =>
  fs.readdirSync(path.join(CAPTURED, runner)).filter((f) => f.endsWith('.txt') || f.endsWith('.xml')).map((f) => path.join(runner, f)));

describe('parse agrees with verify on every captured output', function () {
  this.timeout(120_000);
  const cwd = tempDir('agree');
  after(() => fs.rmSync(cwd, { recursive: true, force: true }));

  for (const capture of captures) {
    it(capture, async () => {
      const file = path.join(CAPTURED, capture);
      const parsed = parseOutput(fs.readFileSync(file, 'utf8'));
      const ids = parsed.failing.map((f) => f.id);
      assert.strictEqual(new Set(ids).size, ids.length, `parse lists a failing test twice: ${ids.join('; ')}`);
      const verifier = new CommandVerifier({ cwd, testCommand: `cat "${file}"`, tsc: 'off', timeoutMs: 30_000 });
      const w = await verifier.verify();
      const norm = testIdNormalizer(cwd);
      assert.deepStrictEqual(w.failing, [...new Set(ids.map(norm))].sort());
      assert.strictEqual(w.loadError, parsed.loadError);
      assert.deepStrictEqual(w.loadErrorFiles, [...new Set((parsed.loadErrors ?? []).map((e) => norm(e.file)))].sort());
    });
  }

  it('reads a conftest.py that cannot be imported as a suite that did not load (pytest exit 4)', () => {
    const r = parseOutput(fs.readFileSync(path.join(CAPTURED, 'pytest', 'q-badconftest.txt'), 'utf8'));
    assert.strictEqual(r.runner, 'pytest');
    assert.strictEqual(r.loadError, true);
  });
});

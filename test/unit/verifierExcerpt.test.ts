// The output excerpt a person reads in the panel (and the model in its prompt) is the runner's own text:
// normalization placeholders belong to comparing runs, not to reading one.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CommandVerifier } from '../../src/verify/commandVerifier';
import { VerifyError } from '../../src/ports/verifier';

describe('the verifier output excerpt', () => {
  it('shows durations, paths and ports as printed, without colours, while the signature still ignores them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-excerpt-'));
    try {
      const script = path.join(dir, 'tap.js');
      fs.writeFileSync(script, [
        "const d = process.argv[2];",
        "console.log('TAP version 13');",
        "console.log('not ok 1 - adds');",
        "console.log('  ---');",
        "console.log('  duration_ms: ' + d);",
        "console.log('  error: \\u001b[31mexpected 3, got -1\\u001b[39m at ' + __filename + ' on 127.0.0.1:' + (40000 + Math.round(Number(d))));",
        "console.log('  ...');",
        "console.log('1..1');",
        'process.exit(1);',
      ].join('\n'));
      const verify = (ms: number) => new CommandVerifier({ cwd: dir, testCommand: `node tap.js ${ms}`, tsc: 'off', timeoutMs: 30_000 }).verify();
      const first = await verify(12.5);
      const second = await verify(31.25);
      assert.match(first.outputExcerpt, /duration_ms: 12\.5/);
      assert.match(first.outputExcerpt, /expected 3, got -1 at .*tap\.js on 127\.0\.0\.1:40013/);
      assert.doesNotMatch(first.outputExcerpt, /<dur>|\u001b/);
      assert.deepStrictEqual(first.failing, ['adds']);
      assert.strictEqual(first.signature, second.signature, 'two runs that differ only in timings and ports are the same run');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells a missing working folder as a VerifyError in one sentence, as the verifier always did', async () => {
    const missing = path.join(os.tmpdir(), `greenloop-no-such-folder-${process.pid}`);
    await assert.rejects(new CommandVerifier({ cwd: missing, testCommand: 'true', tsc: 'off', timeoutMs: 30_000 }).verify(), (err: Error) => {
      assert.ok(err instanceof VerifyError, `a VerifyError, not ${err.name}`);
      assert.ok(err.message.includes(missing));
      assert.match(err.message, /does not exist or is not a folder/);
      return true;
    });
  });
});

// `greenloop fix` itself speaks GitHub's language inside an Actions job (GITHUB_ACTIONS=true) or with --format github,
// through the action's writers — so a plain `run: npx greenloop fix …` step gets the summary, outputs and patch too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';
import { parseOutputs } from './actionHarness';

describe('greenloop fix in a GitHub Actions job (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  let scratch: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    h = await fixHarness('calc');
    scratch = tempDir('fix-github');
    fs.writeFileSync(path.join(scratch, 'summary.md'), '');
    fs.writeFileSync(path.join(scratch, 'output'), '');
    env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: path.join(scratch, 'summary.md'), GITHUB_OUTPUT: path.join(scratch, 'output'), RUNNER_TEMP: scratch };
  });
  afterEach(async () => {
    await h.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  const summary = () => fs.readFileSync(path.join(scratch, 'summary.md'), 'utf8');
  const outputs = () => parseOutputs(fs.readFileSync(path.join(scratch, 'output'), 'utf8'));

  it('detects the job and writes the summary, the outputs, the report and the patch into the runner\'s temp', async () => {
    const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL)], [], { env });
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green', 'with --json the report is still on stdout');
    assert.match(summary(), /## ✅ Greenloop: green/);
    const out = outputs();
    assert.strictEqual(out.outcome, 'green');
    assert.strictEqual(out['report-path'], path.join(scratch, 'greenloop', 'report.json'));
    assert.match(fs.readFileSync(out['patch-path'], 'utf8'), /^\+  return a \* b;$/m);
    assert.match(res.stderr, /^::group::Greenloop attempt 1\/8$/m);
    assert.match(res.stderr, /^::notice title=Greenloop%3A green::/m);
  });

  it('--format text keeps a job\'s files untouched; a run that cannot start still leaves its sentence in the summary', async () => {
    const missing = path.join(scratch, 'gone');
    const text = await runCli(['fix', '--cwd', missing, '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--format', 'text'], { env });
    assert.strictEqual(text.code, 2);
    assert.strictEqual(summary(), '');
    assert.strictEqual(fs.readFileSync(path.join(scratch, 'output'), 'utf8'), '');

    const github = await runCli(['fix', '--cwd', missing, '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'], { env });
    assert.strictEqual(github.code, 2);
    assert.match(summary(), /## ❌ Greenloop: could not run\n\n<p>The folder .*gone does not exist\.<\/p>/);
    assert.strictEqual(outputs().outcome, 'error');
    assert.strictEqual(outputs()['failing-before'], '', 'never a 0 that reads as "nothing fails"');
    assert.match(github.stderr, /^::error title=Greenloop could not run::The folder/m);
    assert.strictEqual(github.stdout, '', 'stdout stays the contract\'s: the --json report or nothing');
  });

  it('an unknown --format is one sentence and exit 2', async () => {
    const res = await runCli(['fix', '--format', 'html']);
    assert.strictEqual(res.code, 2);
    assert.match(res.stderr, /^greenloop: --format must be text or github \(got "html"\)\.$/m);
  });
});

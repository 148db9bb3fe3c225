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

  it('withholds the platform\'s credentials from the test command and the agent, but those --pass-env names; verify too', async () => {
    const token = 'ghs_PLANTEDjobTOKEN0123456789';
    const credentials = { GITHUB_TOKEN: token, ACTIONS_RUNTIME_TOKEN: 'rt-PLANTED-runtime-0001', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-PLANTED-0002', ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.example/PLANTED', TOKEN_COPY_FOR_DEPLOY: token };
    const kept = 'ghp_PLANTEDkeptPERSONALtoken4321';
    const dump = path.join(scratch, 'env.jsonl');
    const dumper = path.join(scratch, 'dump.js');
    fs.writeFileSync(dumper, `require('fs').appendFileSync(${JSON.stringify(dump)}, JSON.stringify({ who: process.argv[2], env: process.env }) + '\\n');\n`);
    const agent = path.join(scratch, 'agent.js');
    fs.writeFileSync(agent, [
      `require('child_process').execFileSync(process.execPath, [${JSON.stringify(dumper)}, 'agent']);`,
      "const fs = require('fs');",
      "const s = fs.readFileSync('src/calc.js', 'utf8');",
      "fs.writeFileSync('src/calc.js', s.replace('return a - b;', 'return a + b;').replace('function mul(a, b) {\\n  return a + b;', 'function mul(a, b) {\\n  return a * b;'));",
    ].join('\n'));
    const testCmd = `node ${JSON.stringify(dumper)} tests && node --test test/`;
    const jobEnv = { ...env, ...credentials, GH_TOKEN: kept };
    const fix = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', `node ${JSON.stringify(agent)}`, '--tsc', 'off', '--state-dir', h.stateDir, '--test-cmd', testCmd, '--pass-env', 'GH_TOKEN', '--json'], { env: jobEnv });
    assert.strictEqual(fix.code, 0, fix.stderr);
    const verify = await runCli(['verify', '--cwd', h.project, '--tsc', 'off', '--test-cmd', `node ${JSON.stringify(dumper)} verify && node --test test/`], { env: jobEnv });
    assert.strictEqual(verify.code, 0, verify.stderr);

    const seen = fs.readFileSync(dump, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { who: string; env: NodeJS.ProcessEnv });
    assert.deepStrictEqual([...new Set(seen.map((s) => s.who))].sort(), ['agent', 'tests', 'verify']);
    for (const { who, env: childEnv } of seen) {
      for (const name of Object.keys(credentials)) assert.strictEqual(childEnv[name], undefined, `${name} reached ${who}`);
      assert.ok(!JSON.stringify(childEnv).includes(token), `the token reached ${who}`);
      if (who !== 'verify') assert.strictEqual(childEnv.GH_TOKEN, kept, `--pass-env GH_TOKEN reaches ${who}`);
      else assert.strictEqual(childEnv.GH_TOKEN, undefined, 'without --pass-env, GH_TOKEN is withheld too');
    }
    // Outside a job (no GITHUB_ACTIONS) the person's own GH_TOKEN is theirs to hand on: nothing is withheld but the model key.
    fs.rmSync(dump);
    const local = await runCli(['verify', '--cwd', h.project, '--tsc', 'off', '--test-cmd', `node ${JSON.stringify(dumper)} laptop && node --test test/`], { env: { ...jobEnv, GITHUB_ACTIONS: '' } });
    assert.strictEqual(local.code, 0, local.stderr);
    assert.strictEqual((JSON.parse(fs.readFileSync(dump, 'utf8')) as { env: NodeJS.ProcessEnv }).env.GH_TOKEN, kept);
  });

  it('an unknown --format is one sentence and exit 2', async () => {
    const res = await runCli(['fix', '--format', 'html']);
    assert.strictEqual(res.code, 2);
    assert.match(res.stderr, /^greenloop: --format must be text or github \(got "html"\)\.$/m);
  });
});

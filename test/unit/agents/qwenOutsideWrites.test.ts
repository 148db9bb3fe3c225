// Issue 22's false alarm, with the real qwen CLI under `greenloop fix --agent qwen`: while qwen fixes calc3, another
// program writes next to the workspace (a build log, a tool's cache folder). Nothing tells that program from the
// agent and Greenloop saves nothing there, so the change must be named as a warning, never undo qwen's fix nor stop
// the run. The other program and qwen meet at two files in a folder of their own: qwen waits (in its shell) until the
// other program has written, so the writes fall inside the agent's run however busy the machine is.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runWithGreenloop } from '../../../bench/agents/withGreenloop';
import { edit, read, say, scripted, shell } from '../../support/agentSteps';
import { installQwen } from '../../support/qwenAgent';
import { ensureCliBuilt } from '../support/cli';

const CALC = 'calc.js';

describe('greenloop fix --agent qwen while another program writes next to the workspace (real qwen)', function () {
  this.timeout(180_000);
  let qwenBin = '';

  before(async function () {
    ensureCliBuilt();
    try {
      qwenBin = await installQwen();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  it('keeps qwen\'s fix, goes green, and names the other program\'s writes as warnings', async () => {
    const meet = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-meet-'));
    const at = path.join(meet, 'agent-at');
    const written = path.join(meet, 'written');
    const other = spawn('sh', ['-c', [
      `until [ -s '${at}' ]; do sleep 0.05; done`,
      `ws="$(cat '${at}')"`,
      'echo built > "$ws/../build.log"',
      'mkdir "$ws/../.watcher-cache"',
      `touch '${written}'`,
    ].join('\n')], { stdio: 'ignore' });
    const scenario = scripted('fixWhileAnotherProgramWrites', [
      read(CALC),
      edit(CALC, 'function add(a, b) {\n  return a - b;', 'function add(a, b) {\n  return a + b;'),
      edit(CALC, 'function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;'),
      edit(CALC, 'function square(a) {\n  return a * 2;', 'function square(a) {\n  return a * a;'),
      shell(`pwd > '${at}.tmp' && mv '${at}.tmp' '${at}' && until [ -e '${written}' ]; do sleep 0.1; done`),
      shell('npm test'),
      say('Fixed.'),
    ]);
    try {
      const r = await runWithGreenloop(scenario, { qwenBin });
      assert.equal(r.report.outcome, 'green', `${r.report.reason}: ${r.report.reasonText}\n${r.stderr}`);
      assert.equal(r.exitCode, 0);
      assert.equal(r.failingAtEnd, 0, 'the fix is kept');
      const first = r.report.iterations[0];
      assert.equal(first.verdict, 'green');
      assert.equal(first.rolledBack, false);
      assert.deepEqual(first.outsideWarnings, [
        { where: '../.watcher-cache', what: 'created', why: 'next to the workspace, where Greenloop saves nothing' },
        { where: '../build.log', what: 'created', why: 'next to the workspace, where Greenloop saves nothing' },
      ]);
      assert.match(r.report.warnings.join('\n'), /^While the agent ran attempt 1, 2 things outside the files Greenloop snapshots changed: \.\.\/\.watcher-cache created .*, \.\.\/build\.log created .*\. Greenloop can neither undo them nor tell the agent's writes from another program's, so they were left as they are and the attempt went on/m);
    } finally {
      other.kill();
      const ws = fs.existsSync(at) ? fs.readFileSync(at, 'utf8').trim() : null;
      // runWithGreenloop removes the workspace; the folder around it holds what the other program wrote.
      if (ws) fs.rmSync(path.dirname(ws), { recursive: true, force: true });
      fs.rmSync(meet, { recursive: true, force: true });
    }
  });
});

// Nothing read, written or leaked outside the workspace; nothing of the person's lost. Hostile answers, a person
// saving files mid-run and secrets in the environment, through the real CLI on real git copies of a project.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import { waitUntil } from '../support/waitUntil';
import type { FixHarness } from '../support/fixHarness';
import { answer, BREAK_NEG, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

describe('greenloop fix keeps the workspace and the person safe (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  it('never reads a refused path into the next prompt: outside files, .git/config, links out, devices, FIFOs, ignored files', async () => {
    execFileSync('git', ['config', 'remote.origin.url', 'https://ghp_TOKENINGITCONFIG123@example.com/x.git'], { cwd: h.project });
    fs.symlinkSync('/etc/hostname', path.join(h.project, 'src', 'host.js'));
    execFileSync('mkfifo', [path.join(h.project, 'src', 'pipe.js')]);
    h.write('.gitignore', '.env\n');
    h.write('.env', 'SERVICE_PASSWORD=hunter2-in-dotenv\n');
    const names = ['../../../../etc/passwd', '.git/config', 'src/host.js', '/dev/zero', 'src/pipe.js', '.env'];
    const hostile = names.map((p) => edit(p, 'a', 'b')).join('\n');
    // A run that hangs on the FIFO would never end: the CLI is killed at 110 s (ten times a run on a busy machine),
    // which shows as no exit code.
    const res = await h.fix([answer(hostile), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3'], { timeoutMs: 110_000 });
    assert.notStrictEqual(res.code, null, 'the run hung on the FIFO and was killed');
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.iterations[0].verdict, 'invalid-proposal');
    const next = h.prompt(1);
    assert.doesNotMatch(next, /root:x:0:0/, '/etc/passwd');
    assert.doesNotMatch(next, /ghp_TOKENINGITCONFIG123/, '.git/config');
    assert.doesNotMatch(next, new RegExp(fs.readFileSync('/etc/hostname', 'utf8').trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\n```'), 'a link out of the workspace');
    assert.doesNotMatch(next, /hunter2-in-dotenv/, 'a git-ignored .env');
    assert.match(next, /src\/calc\.js\n```/, 'the files that matter are still shown');
  });

  /**
   * A test command that, once the given edit is on disk, says so and waits until the test has saved the person's
   * files (`release`): the saves land while the tests run whatever the machine's speed (the wait gives up after 2 min).
   */
  function slowTestsAfter(pattern: string): { cmd: string; started: () => boolean; release: () => void } {
    const marker = path.join(h.stateDir, 'tests-running');
    const saved = path.join(h.stateDir, 'person-saved');
    const waitForSaves = `i=0; while [ ! -f "${saved}" ] && [ $i -lt 2400 ]; do sleep 0.05; i=$((i+1)); done`;
    return {
      cmd: `if grep -qF ${JSON.stringify(pattern)} src/calc.js && [ ! -f "${marker}" ]; then touch "${marker}"; ${waitForSaves}; fi; node --test test/`,
      started: () => fs.existsSync(marker),
      release: () => fs.writeFileSync(saved, ''),
    };
  }
  const whenTrue = (check: () => boolean) => waitUntil(check, 'the slow test run starting');

  it('a rollback never overwrites or deletes what a person saved while the tests ran; the run stops and names it', async () => {
    const t = slowTestsAfter('return a;');
    const run = h.fix([answer(BREAK_NEG), answer(FIX_ADD)], ['--test-cmd', t.cmd, '--patience', '3']);
    await whenTrue(t.started);
    h.write('NOTES.md', 'what I found\n');
    h.write('README.md', '# my own readme\n');
    t.release();
    const res = await run;
    assert.strictEqual(res.report.iterations[0].verdict, 'regression');
    assert.strictEqual(res.report.reason, 'user-edit');
    assert.match(res.report.reasonText, /\(NOTES\.md, README\.md\) were left as they are/);
    assert.strictEqual(h.read('NOTES.md'), 'what I found\n');
    assert.strictEqual(h.read('README.md'), '# my own readme\n');
    assert.match(h.read('src/calc.js'), /return -a;/, 'the regression itself was rolled back');
  });

  it('a person saving files while a kept attempt is tested stops the run, and nothing of theirs is removed later', async () => {
    const t = slowTestsAfter('return a * b;');
    const run = h.fix([answer(FIX_MUL), answer(FIX_ADD)], ['--test-cmd', t.cmd, '--on-give-up', 'restore-baseline']);
    await whenTrue(t.started);
    h.write('PERSON_NOTES.md', 'mine\n');
    h.write('src/calc.js', `${h.read('src/calc.js')}// PERSON\n`);
    t.release();
    const res = await run;
    assert.strictEqual(res.report.reason, 'user-edit');
    assert.match(res.report.reasonText, /Files changed while the tests ran that the loop did not write \(PERSON_NOTES\.md\)/);
    assert.strictEqual(h.read('PERSON_NOTES.md'), 'mine\n');
    assert.match(h.read('src/calc.js'), /\/\/ PERSON/);
    assert.strictEqual(h.server.requests.length, 1, 'no further model call');
  });

  it('refuses a model edit to a name git cannot record; an agent that makes one stops the run truthfully; the next run says why in one line', async () => {
    const refused = await h.fix([answer(edit('src/.git./x.js', '', 'module.exports = 1;'))], ['--max-iterations', '1']);
    assert.match(refused.report.iterations[0].note, /src\/\.git\.\/x\.js has a folder name git treats as \.git/);
    assert.strictEqual(fs.existsSync(path.join(h.project, 'src', '.git.')), false);

    const agent = path.join(h.stateDir, 'agent.sh');
    fs.writeFileSync(agent, "#!/bin/sh\nmkdir -p 'git~1' && echo y > 'git~1/y.js'\nsed -i 's/return a - b;/return a + b;/' src/calc.js\n", { mode: 0o755 });
    const run = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', agent, '--tsc', 'off', '--state-dir', h.stateDir, '--json']);
    assert.strictEqual(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.strictEqual(report.reason, 'actor-error');
    assert.match(report.reasonText, /Git cannot record git~1\/y\.js.*What the agent changed in attempt 1 is still on disk; nothing more was changed\./);
    assert.match(h.read('src/calc.js'), /return a \+ b;/, 'the report tells the truth: the edit is there');

    const next = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', 'true', '--tsc', 'off', '--state-dir', h.stateDir]);
    assert.strictEqual(next.code, 2);
    const said = next.stderr.trim().split('\n').filter((l) => !/^greenloop: verifying /.test(l));
    assert.strictEqual(said.length, 1, next.stderr);
    assert.match(said[0], /^greenloop: Git cannot record git~1\/y\.js .*rename or delete it/);
  });

  it('without git on PATH: one line, exit 2, and the snapshot store of earlier runs untouched', async () => {
    const first = await h.fix([answer(FIX_ADD), answer(FIX_MUL)]);
    assert.strictEqual(first.code, 0);
    const store = fs.readdirSync(path.join(h.stateDir, 'snapshots'));
    const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', 'true', '--test-cmd', 'node --test test/', '--tsc', 'off', '--state-dir', h.stateDir], { env: { PATH: fs.mkdtempSync(path.join(os.tmpdir(), 'no-git-')) } });
    assert.strictEqual(res.code, 2, res.stderr);
    assert.match(res.stderr, /^greenloop: git was not found on PATH; install git/);
    assert.deepStrictEqual(fs.readdirSync(path.join(h.stateDir, 'snapshots')), store);
  });
});

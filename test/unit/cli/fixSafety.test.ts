// Nothing read, written or leaked outside the workspace; nothing of the person's lost. Hostile answers, a person
// saving files mid-run and secrets in the environment, through the real CLI on real git copies of a project.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { fixHarness } from '../support/fixHarness';
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
    const started = Date.now();
    const res = await h.fix([answer(hostile), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3'], { timeoutMs: 60_000 });
    assert.ok(Date.now() - started < 60_000, 'the run did not hang on the FIFO');
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.iterations[0].verdict, 'invalid-proposal');
    const next = h.prompt(1);
    assert.doesNotMatch(next, /root:x:0:0/, '/etc/passwd');
    assert.doesNotMatch(next, /ghp_TOKENINGITCONFIG123/, '.git/config');
    assert.doesNotMatch(next, new RegExp(fs.readFileSync('/etc/hostname', 'utf8').trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\n```'), 'a link out of the workspace');
    assert.doesNotMatch(next, /hunter2-in-dotenv/, 'a git-ignored .env');
    assert.match(next, /src\/calc\.js\n```/, 'the files that matter are still shown');
  });

  /** A test command that, once the given edit is on disk, says so and takes 3 s: a person saves files meanwhile. */
  function slowTestsAfter(pattern: string): { cmd: string; started: () => boolean } {
    const marker = path.join(h.stateDir, 'tests-running');
    return {
      cmd: `if grep -qF ${JSON.stringify(pattern)} src/calc.js && [ ! -f "${marker}" ]; then touch "${marker}"; sleep 3; fi; node --test test/`,
      started: () => fs.existsSync(marker),
    };
  }
  async function whenTrue(check: () => boolean): Promise<void> {
    for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(check(), 'the condition never came true');
  }

  it('a rollback never overwrites or deletes what a person saved while the tests ran; the run stops and names it', async () => {
    const t = slowTestsAfter('return a;');
    const run = h.fix([answer(BREAK_NEG), answer(FIX_ADD)], ['--test-cmd', t.cmd, '--patience', '3']);
    await whenTrue(t.started);
    h.write('NOTES.md', 'what I found\n');
    h.write('README.md', '# my own readme\n');
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
    const res = await run;
    assert.strictEqual(res.report.reason, 'user-edit');
    assert.match(res.report.reasonText, /Files changed while the tests ran that the loop did not write \(PERSON_NOTES\.md\)/);
    assert.strictEqual(h.read('PERSON_NOTES.md'), 'mine\n');
    assert.match(h.read('src/calc.js'), /\/\/ PERSON/);
    assert.strictEqual(h.server.requests.length, 1, 'no further model call');
  });
});

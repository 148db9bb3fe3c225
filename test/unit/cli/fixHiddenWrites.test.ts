// An edit that hides what it writes from the snapshots: it creates a file and, in the same answer, makes git ignore
// it (a .gitignore line, a whole folder, a negation taken away, a nested .gitignore). No snapshot records such a
// file, so a rollback from one could never remove it. Every path the loop writes is put back or removed whatever the
// ignore rules say; a model's edit that hides one of its own files is refused and undone at once. Real CLI, real git,
// a scripted model server on loopback.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, BREAK_NEG, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

/** One answer made of several SEARCH/REPLACE blocks (each from `edit`), with one line of prose first. */
const blocks = (...edits: string[]) => `I will try this.\n\n${edits.map((e) => e.slice(e.indexOf('\n\n') + 2)).join('\n')}`;
const create = (file: string, text: string) => edit(file, '', text);
/** BREAK_NEG's block alone: negation stops negating, so `calc > negates`, which passed, fails. */
const BREAK = BREAK_NEG;

describe('greenloop fix: a file the same edit hides from git is never left behind (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  const exists = (rel: string) => fs.existsSync(path.join(h.project, rel));

  it('creates leftover.js, adds it to .gitignore and breaks a passing test: refused and undone, leftover.js gone, .gitignore as it was', async () => {
    h.write('.gitignore', 'node_modules/\n');
    const hide = blocks(create('leftover.js', 'module.exports = 1;\n'), edit('.gitignore', 'node_modules/', 'node_modules/\nleftover.js'), BREAK);
    const res = await h.fix([answer(hide), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3']);
    assert.strictEqual(res.code, 0, res.stderr);
    const first = res.report.iterations[0];
    assert.strictEqual(first.verdict, 'invalid-proposal', first.note);
    assert.match(first.note, /^The edit was refused and undone: it makes git ignore leftover\.js, which it wrote itself, so no snapshot would record it and no rollback could remove it/);
    assert.strictEqual(exists('leftover.js'), false, 'leftover.js is gone');
    assert.strictEqual(h.read('.gitignore'), 'node_modules/\n');
    assert.doesNotMatch(h.read('src/calc.js'), /return a;\n/, 'the broken negation went with it');
    assert.match(h.prompt(1), /it makes git ignore leftover\.js/, 'the model is told why');
  });

  it('the same with a whole new folder ignored, a negation taken away, a nested .gitignore and a .gitignore that ignores itself', async () => {
    h.write('.gitignore', '*.local.js\n!keep.local.js\n');
    const folder = blocks(create('gen/a.js', 'a\n'), create('gen/deep/b.js', 'b\n'), edit('.gitignore', '*.local.js', 'gen/\n*.local.js'), BREAK);
    const negation = blocks(create('keep.local.js', 'k\n'), edit('.gitignore', '*.local.js\n!keep.local.js', '*.local.js'), BREAK);
    const nested = blocks(create('src/leftover.js', 'x\n'), create('src/.gitignore', 'leftover.js\n'), BREAK);
    const itself = blocks(create('lib/.gitignore', '*\n'), create('lib/hidden.js', 'h\n'), FIX_ADD);
    const res = await h.fix([answer(folder), answer(negation), answer(nested), answer(itself), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '6']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['invalid-proposal', 'invalid-proposal', 'invalid-proposal', 'invalid-proposal', 'progress', 'green']);
    assert.match(res.report.iterations[0].note, /it makes git ignore gen\/a\.js and gen\/deep\/b\.js/);
    assert.match(res.report.iterations[1].note, /it makes git ignore keep\.local\.js/);
    assert.match(res.report.iterations[2].note, /it makes git ignore src\/leftover\.js/);
    assert.match(res.report.iterations[3].note, /it makes git ignore lib\/\.gitignore and lib\/hidden\.js/);
    for (const gone of ['gen', 'keep.local.js', 'src/leftover.js', 'src/.gitignore', 'lib']) assert.strictEqual(exists(gone), false, `${gone} is gone`);
    assert.strictEqual(h.read('.gitignore'), '*.local.js\n!keep.local.js\n');
  });

  it('a file created by a kept attempt and ignored by a later one goes at restore-baseline; .git/info/exclude stays out of reach', async () => {
    h.write('.gitignore', 'node_modules/\n');
    const keep = blocks(create('helper.js', 'module.exports = 1;\n'), FIX_ADD);
    const ignoreIt = blocks(edit('.gitignore', 'node_modules/', 'node_modules/\nhelper.js'), BREAK);
    const exclude = edit('.git/info/exclude', '', 'src/\n');
    const res = await h.fix([answer(keep), answer(ignoreIt), answer(exclude)], ['--patience', '2', '--on-give-up', 'restore-baseline', '--verify-scope', 'full']);
    assert.strictEqual(res.report.reason, 'stagnation', res.report.reasonText);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['progress', 'regression', 'invalid-proposal']);
    assert.match(res.report.iterations[2].note, /\.git\/info\/exclude is inside \.git\/, which Greenloop never edits/);
    assert.strictEqual(exists('helper.js'), false, 'the kept attempt\'s file went with the restore');
    assert.strictEqual(h.read('.gitignore'), 'node_modules/\n');
    assert.match(h.read('src/calc.js'), /return a - b;/, 'back at the baseline');
    assert.doesNotMatch(fs.readFileSync(path.join(h.project, '.git/info/exclude'), 'utf8'), /src\//);
  });

  it('failing tests first: the same, with the breaking edit kept as no progress until the end @heavy', async () => {
    h.write('.gitignore', 'node_modules/\n');
    const keep = blocks(create('helper.js', 'module.exports = 1;\n'), FIX_ADD);
    const ignoreIt = blocks(edit('.gitignore', 'node_modules/', 'node_modules/\nhelper.js'), BREAK);
    const exclude = edit('.git/info/exclude', '', 'src/\n');
    const res = await h.fix([answer(keep), answer(ignoreIt), answer(exclude)], ['--patience', '2', '--on-give-up', 'restore-baseline']);
    assert.strictEqual(res.report.reason, 'stagnation', res.report.reasonText);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['progress', 'no-progress', 'invalid-proposal']);
    assert.match(res.report.iterations[2].note, /\.git\/info\/exclude is inside \.git\/, which Greenloop never edits/);
    assert.strictEqual(exists('helper.js'), false, 'the kept attempt\'s file went with the restore');
    assert.strictEqual(h.read('.gitignore'), 'node_modules/\n');
    assert.match(h.read('src/calc.js'), /return a - b;/, 'back at the baseline');
    assert.doesNotMatch(fs.readFileSync(path.join(h.project, '.git/info/exclude'), 'utf8'), /src\//);
  });

  it('an agent that creates leftover.js, ignores it and breaks a test leaves nothing behind', async () => {
    fs.writeFileSync(path.join(h.project, '.gitignore'), 'node_modules/\n');
    const agent = path.join(h.stateDir, 'agent.sh');
    fs.writeFileSync(agent, [
      '#!/bin/sh',
      "echo 'module.exports = 1;' > leftover.js",
      "mkdir -p gen && echo x > gen/out.js",
      "printf 'leftover.js\\ngen/\\n' >> .gitignore",
      "sed -i 's/return -a;/return a;/' src/calc.js",
    ].join('\n'), { mode: 0o755 });
    const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', agent, '--test-cmd', 'node --test test/', '--tsc', 'off', '--state-dir', h.stateDir, '--json', '--max-iterations', '1']);
    const report = JSON.parse(res.stdout);
    assert.strictEqual(report.iterations[0].rolledBack, true, report.iterations[0].note);
    assert.strictEqual(exists('leftover.js'), false, 'leftover.js is gone');
    assert.strictEqual(exists('gen'), false, 'gen/ is gone');
    assert.strictEqual(h.read('.gitignore'), 'node_modules/\n');
    assert.match(h.read('src/calc.js'), /return -a;/);
  });
});

// The model may ask (issue 31, item 5): an answer of `READ path` / `READ path#symbol` lines gets the code in the next
// turn of the same attempt, at most 3 reads per attempt, counted in its calls and tokens; a read of what the prompt
// already shows is a repeated proposal; a refused path is refused with one sentence. Real CLI, real git, real
// `node --test`, a scripted model server on loopback.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { fixHarness, type FixHarness } from '../support/fixHarness';
import { answer, edit, FIX_MUL, USAGE } from '../../support/calcAnswers';

// add() calls plus() in src/ops.js through a path computed at run time, which no resolver follows, and the tests run
// through a shell script Greenloop cannot narrow to the failing tests, so no covered run finds plus() either: the
// prompt does not show it, and the model has to ask.
const UNNARROWABLE = ['--test-cmd', "sh -c 'node --test test/'"];
const CALC = "'use strict';\nconst { plus } = require(['.', 'ops'].join('/'));\n\nfunction add(a, b) {\n  return plus(a, b);\n}\n\nfunction mul(a, b) {\n  return a + b;\n}\n\nfunction neg(a) {\n  return -a;\n}\n\nmodule.exports = { add, mul, neg };\n";
const OPS = "'use strict';\n\n// Sums two numbers.\nfunction plus(a, b) {\n  return a - b;\n}\n\nmodule.exports = { plus };\n";
const FIX_PLUS = edit('src/ops.js', '  return a - b;', '  return a + b;', 'plus() subtracts; it should add.');
const FIX_BOTH = `${FIX_PLUS}\n${FIX_MUL}`;

describe('greenloop fix: the model may READ code (real CLI, scripted model server)', function () {
  this.timeout(120_000);
  let h: FixHarness;

  beforeEach(async () => {
    h = await fixHarness('calc');
    h.write('src/calc.js', CALC);
    h.write('src/ops.js', OPS);
    for (const name of ['more', 'extra', 'last']) h.write(`src/${name}.js`, `'use strict';\n// The ${name} helpers.\nmodule.exports = { ${name}: () => '${name}-body' };\n`);
    h.write('.gitignore', '.env\n');
    h.write('.env', 'API_TOKEN=sk-read-test-0123456789\n');
    h.write('config/.env.production', 'DB_PASSWORD=tracked-secret-value\n');
    const git = (...a: string[]) => execFileSync('git', a, { cwd: h.project, stdio: 'pipe' });
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'ops');
  });
  afterEach(async () => h.close());

  it('shows the file a READ asks for in the next turn of the same attempt, and the edit made from it goes green', async () => {
    const res = await h.fix([answer('The bug must be in plus(), which I cannot see.\nREAD src/ops.js#plus'), answer(FIX_BOTH)], UNNARROWABLE);
    assert.strictEqual(res.report?.outcome, 'green', res.stderr);
    assert.strictEqual(res.report.iterations.length, 1, 'one attempt: the read is part of it');
    assert.strictEqual(h.server.requests.length, 2);
    assert.strictEqual(res.report.llmCalls, 2, 'the read costs a model call');
    assert.deepStrictEqual(res.report.iterations[0].tokens, { prompt: 2 * USAGE.prompt_tokens, completion: 2 * USAGE.completion_tokens }, 'both calls are charged to the attempt');
    assert.ok(!h.prompt(0).includes('return a - b;'), 'the first prompt does not show plus()');
    const second = h.prompt(1);
    // The session's code reader cuts the function out with tree-sitter (a window of lines only without a reader).
    assert.match(second, /## Code you asked to READ\nsrc\/ops\.js \(lines 4–6 of 8: function plus\)/);
    assert.ok(second.includes('function plus(a, b) {\n  return a - b;\n}'), second);
    assert.match(second, /READ again \(2 reads left in this attempt\)/);
    assert.match(h.prompt(0), /READ path#name/, 'the prompt says the model can read');
    assert.strictEqual(h.read('src/ops.js').includes('return a + b;'), true);
  });

  it('refuses a fourth read: the attempt ends as an invalid proposal with a note that says why', async () => {
    const reads = ['src/ops.js', 'src/more.js', 'src/extra.js', 'src/last.js'].map((p) => answer(`READ ${p}`));
    const res = await h.fix([...reads, answer(FIX_BOTH)], ['--max-iterations', '1', ...UNNARROWABLE]);
    assert.strictEqual(res.report?.outcome, 'escalated', res.stderr);
    assert.strictEqual(h.server.requests.length, 4, 'no call after the fourth read');
    assert.strictEqual(res.report.llmCalls, 4);
    const it0 = res.report.iterations[0];
    assert.strictEqual(it0.verdict, 'invalid-proposal');
    assert.match(it0.note, /READ src\/last\.js, past the 3 reads one attempt may make, and was refused/);
    assert.ok(h.prompt(3).includes("module.exports = { extra: () => 'extra-body' };"), 'the third read was shown');
    assert.match(h.prompt(3), /no reads left in this attempt/);
    assert.ok(!h.prompt(3).includes('last-body'), 'the fourth read is never shown');
  });

  it('counts a READ of a file the prompt already shows as a repeated proposal', async () => {
    const res = await h.fix([answer('READ src/calc.js'), answer(FIX_BOTH)]);
    assert.strictEqual(res.report?.outcome, 'escalated', res.stderr);
    assert.strictEqual(res.report.reason, 'repeated-proposal');
    assert.strictEqual(h.server.requests.length, 1, 'the run stops as on a repeated edit');
    assert.match(res.report.iterations[0].note, /asked to READ src\/calc\.js, which the prompt already shows; not shown again/);
    assert.ok(h.prompt(0).includes(CALC.trim()), 'the prompt did show it');
  });

  it('refuses a READ of a secret, an ignored file or a path outside the workspace with one sentence each, and shows none of them', async () => {
    const outside = path.join(path.dirname(h.project), `${path.basename(h.project)}-outside.txt`);
    fs.writeFileSync(outside, 'outside-the-workspace-content\n');
    try {
      const asked = ['READ .env', 'READ config/.env.production', `READ ../${path.basename(outside)}`].join('\n');
      const res = await h.fix([answer(asked), answer(FIX_BOTH)]);
      assert.strictEqual(res.report?.outcome, 'green', res.stderr);
      const second = h.prompt(1);
      assert.match(second, /READ \.env was refused: \.env is a file that holds secrets by convention/);
      assert.match(second, /READ config\/\.env\.production was refused: [^\n]*secrets/);
      assert.match(second, new RegExp(`READ \\.\\./${path.basename(outside)} was refused: [^\\n]*outside the workspace`));
      for (const secret of ['sk-read-test-0123456789', 'tracked-secret-value', 'outside-the-workspace-content']) {
        assert.ok(!h.server.requests.some((r) => r.rawBody.includes(secret)), `${secret} reached the model`);
      }
      assert.match(second, /no reads left in this attempt/, 'a refused read counts toward the three');
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it('applies an answer that mixes READ lines and edit blocks, ignores its READ lines and says so', async () => {
    const res = await h.fix([answer(`READ src/more.js\n\n${FIX_PLUS}`), answer(FIX_MUL)]);
    assert.strictEqual(res.report?.outcome, 'green', res.stderr);
    assert.strictEqual(h.server.requests.length, 2, 'one call per attempt: no read was served');
    assert.ok(!h.prompt(1).includes('more-body'));
    assert.match(res.report.iterations[0].note, /its READ lines were ignored: an answer with edits is applied as it is/);
  });
});

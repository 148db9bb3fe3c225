// Code moved out of the checker's reach without deleting anything (issue 24): the erroring function emptied out of a
// file tsc checks into a file the edit creates where tsc does not look. The checked file still exists, so only the
// new file tells; an edit to a file that already existed unchecked must not be taken for such a move.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';

function linkTypescript(project: string): void {
  fs.mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules', 'typescript'), path.join(project, 'node_modules', 'typescript'));
  fs.symlinkSync('../typescript/bin/tsc', path.join(project, 'node_modules', '.bin', 'tsc'));
}

/** A block that creates a file (an empty SEARCH). */
const create = (file: string, text: string): string => `${file}\n\`\`\`js\n<<<<<<< SEARCH\n=======\n${text}>>>>>>> REPLACE\n\`\`\`\n`;

const FORMAT_BODY = "function format(n) {\n  /** @type {number} */\n  const cents = n.toFixed(2);\n  return String(cents);\n}\n\nmodule.exports = { format };";
// src/format.js keeps existing (tsc still checks it) but only forwards to lib/format.js through a require tsc cannot
// follow; lib/ is outside tsconfig's "include", so the type error goes with the code and the tests still pass.
const MOVE_OUT = [
  edit('src/format.js', `/**\n * @param {number} n\n * @returns {string}\n */\n${FORMAT_BODY}`, "const impl = require(['..', 'lib', 'format.js'].join('/'));\n\nmodule.exports = { format: impl.format };", 'Move the formatting into lib/.'),
  create('lib/format.js', `'use strict';\n\n${FORMAT_BODY}\n`),
].join('\n');
const REAL_FIX = edit('src/format.js', '  /** @type {number} */\n  const cents = n.toFixed(2);', '  /** @type {string} */\n  const cents = n.toFixed(2);', 'toFixed returns a string.');

describe('greenloop fix: code moved into a new file no checker looks at (real CLI, scripted model)', function () {
  this.timeout(300_000);
  let h: FixHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('is never green: rolled back, the next prompt names the new file, then the real fix goes green', async () => {
    h = await fixHarness('money');
    linkTypescript(h.project);
    const res = await h.fix([answer(MOVE_OUT), answer(REAL_FIX)], ['--tsc', 'on', '--patience', '3', '--max-iterations', '3']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green');
    assert.deepStrictEqual(res.report.iterations.map((it: { verdict: string }) => it.verdict), ['regression', 'green']);
    assert.match(res.report.iterations[0].note, /tsc does not check lib\/format\.js, which the edit created/);
    assert.match(h.prompt(1), /tsc does not check lib\/format\.js/, 'the next prompt names the file');
    assert.ok(!fs.existsSync(path.join(h.project, 'lib', 'format.js')), 'the new file went with the rollback');
    assert.match(h.read('src/format.js'), /@type \{string\}/);
    assert.match(h.read('src/format.js'), /function format\(n\)/, 'the code is back where tsc checks it');
  });

  it('an edit to a file that already existed outside tsconfig\'s "include" is not flagged', async () => {
    h = await fixHarness('money');
    linkTypescript(h.project);
    h.write('scripts/report.js', "'use strict';\nconsole.log('report');\n");
    const touchScript = edit('scripts/report.js', "console.log('report');", "console.log('price report');", 'Say what the report is.');
    const res = await h.fix([answer(`${REAL_FIX}\n${touchScript}`)], ['--tsc', 'on', '--max-iterations', '1']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green');
    assert.deepStrictEqual(res.report.iterations[0].files.slice().sort(), ['scripts/report.js', 'src/format.js']);
    assert.match(h.read('scripts/report.js'), /price report/);
  });
});

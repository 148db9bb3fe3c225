// What the model reads in its first prompt on a TypeScript project compiled to out/ or dist/: the TypeScript
// sources of the failing test and of the code it imports, never the compiled (protected) test files. A real
// project compiled by the real tsc, the real CLI and a scripted model server.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';

const ROOT = path.resolve(__dirname, '../../..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const MONEY = [
  'export function formatCents(cents: number): string {',
  '  const whole = Math.floor(cents / 100);',
  '  const rest = cents % 100;',
  '  return `${whole}.${rest}`;',
  '}',
  '',
].join('\n');
const MONEY_TEST = [
  "import { test } from 'node:test';",
  "import * as assert from 'node:assert/strict';",
  "import { formatCents } from '../src/money';",
  '',
  "test('pads the cents', () => assert.equal(formatCents(305), '3.05'));",
  "test('pads a cents-only amount', () => assert.equal(formatCents(7), '0.07'));",
  '',
].join('\n');
const FIX = edit('src/money.ts', '  return `${whole}.${rest}`;', "  return `${whole}.${String(rest).padStart(2, '0')}`;", 'The bug is in src/money.ts. I pad the cents.');

describe('greenloop fix: the first prompt shows the code under test of a compiled TypeScript project (real tsc, real CLI)', function () {
  this.timeout(180_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
    for (const f of fs.readdirSync(h.project)) if (f !== '.git') fs.rmSync(path.join(h.project, f), { recursive: true, force: true });
  });
  afterEach(async () => {
    await h.close();
  });

  /** `emitTo`: an --outDir given on the command line, which tsconfig does not know: only the source maps lead back. */
  function project(outDir: string, sourceMap: boolean, emitTo = outDir): string {
    h.write('.gitignore', `${emitTo.split('/')[0]}/\n`);
    h.write('tsconfig.json', [
      '{',
      '  // the shape `tsc --init` writes: comments and all',
      '  "compilerOptions": {',
      '    "target": "es2020", "module": "commonjs", "strict": true, "skipLibCheck": true,',
      `    "outDir": "${outDir}", "rootDir": ".",`,
      `    "sourceMap": ${sourceMap},`,
      `    "typeRoots": [${JSON.stringify(path.join(ROOT, 'node_modules', '@types'))}], "types": ["node"],`,
      '  },',
      '  "include": ["src", "test"]',
      '}',
      '',
    ].join('\n'));
    h.write('src/money.ts', MONEY);
    h.write('test/money.test.ts', MONEY_TEST);
    // Compiled first, then the compiled tests run: their stack traces name out/test/*.js, not the .ts sources.
    return `node ${JSON.stringify(TSC)} -p .${emitTo === outDir ? '' : ` --outDir ${emitTo}`} ; node --test ${emitTo}/test/`;
  }

  for (const { outDir, sourceMap, emitTo, how } of [
    { outDir: 'out', sourceMap: true, emitTo: 'build/js', how: 'through the source maps' },
    { outDir: 'dist', sourceMap: false, emitTo: 'dist', how: 'through tsconfig outDir/rootDir (no source maps)' },
  ]) {
    it(`attaches src/money.ts and test/money.test.ts, not ${emitTo}/ files, ${how}`, async () => {
      const res = await h.fix([answer(FIX)], ['--test-cmd', project(outDir, sourceMap, emitTo)]);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.deepStrictEqual(res.report.baseline.failing.sort(), ['pads a cents-only amount', 'pads the cents']);
      const prompt = h.prompt(0);
      assert.match(prompt, /^test\/money\.test\.ts \(protected test file: read only\)\n```\nimport \{ test \}/m, 'the TypeScript test');
      assert.match(prompt, /^src\/money\.ts\n```\nexport function formatCents/m, 'the code under test the test imports');
      assert.doesNotMatch(prompt, new RegExp(`^${emitTo}/.*\\.js(?: \\(protected test file: read only\\))?\\n\`\`\``, 'm'), 'no compiled file');
      assert.equal(res.report.iterations[0].hypothesis, 'The bug is in src/money.ts. I pad the cents.');
    });
  }
});

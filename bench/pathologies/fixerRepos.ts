// Issue 33's pathologies: lint errors the project's own fixer fixes (`eslint --fix`, which a fixed-cap loop never
// runs, so it spends a model call on what a tool does for free), and a fixer whose change breaks a test (which must
// be undone, and the model asked with the original errors). ESLint comes from the checker tests' cache.
import * as path from 'node:path';
import { block, say } from './scenario';
import type { Scenario } from './scenario';
import { CALC, calcRepo } from './calcRepo';
import { CHECKERS_CACHE } from './workspace';

const ESLINT = 'node_modules/.bin/eslint --format json src';
const NEEDS_ESLINT = { command: path.join(CHECKERS_CACHE, 'node_modules', '.bin', 'eslint'), probe: ['--version'] };
const LETS = 'let unit = 1;\nlet zero = unit - 1;\nexports.constants = [unit, zero];';

export const FIXER_FIXES_LINT: Scenario = {
  name: 'fixer-fixes-lint',
  title: 'lint errors a fixer can fix (prefer-const, eslint --fix)',
  files: {
    ...calcRepo([], { extraSource: LETS }),
    'eslint.config.mjs': "export default [{ files: ['**/*.js'], rules: { 'prefer-const': 'error' } }];\n",
  },
  checks: [ESLINT],
  eslint: true,
  needs: NEEDS_ESLINT,
  model: (t) =>
    (t.read(CALC) ?? '').includes('let unit')
      ? say('These never change: const.', block(CALC, 'let unit = 1;\nlet zero = unit - 1;', 'const unit = 1;\nconst zero = unit - 1;'))
      : say('Nothing left to do.'),
  expected: { outcome: 'green', reasons: [], decidedAfter: 0, why: "the project's own `eslint --fix` fixes both errors: no model call is needed" },
};

const SHAPES = "'use strict';\nmodule.exports = {\n  Point: function (x, y) {\n    this.x = x;\n    this.y = y;\n  },\n};\n";
const SHAPES_TEST = "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst shapes = require('../src/shapes');\n\ntest('a Point is made with new', () => assert.strictEqual(new shapes.Point(1, 2).x, 1));\n";

export const FIXER_BREAKS_TEST: Scenario = {
  name: 'fixer-breaks-test',
  title: 'a fixer that breaks a test (object-shorthand makes a constructor a method)',
  files: {
    'package.json': `${JSON.stringify({ name: 'shapes', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
    'src/shapes.js': SHAPES,
    'test/shapes.test.js': SHAPES_TEST,
    'eslint.config.mjs': "export default [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, rules: { 'object-shorthand': 'error' } }];\n",
  },
  checks: [ESLINT],
  eslint: true,
  needs: NEEDS_ESLINT,
  model: (t) =>
    (t.read('src/shapes.js') ?? '').includes('Point: function')
      ? say('A constructor must stay constructible: a class.', block('src/shapes.js', '  Point: function (x, y) {\n    this.x = x;\n    this.y = y;\n  },', '  Point: class {\n    constructor(x, y) {\n      this.x = x;\n      this.y = y;\n    }\n  },'))
      : say('Nothing left to do.'),
  expected: { outcome: 'green', reasons: [], decidedAfter: 1, why: "ESLint's own fix turns the constructor into a method and breaks the test: it must be undone, and one answer makes it a class" },
};

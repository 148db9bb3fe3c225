// greenloop.checks, greenloop.allowSuppressions and greenloop.diagnostics.source: read with one sentence per mistake,
// and the check commands as the verifier reads them.
import * as assert from 'assert';
import { fake } from './support/fakeVscode';
import { ConfigReader, SettingsError } from '../../../src/extension/config';
import { checkSpecFromSetting, CheckSpecError } from '../../../src/verify/checkers/checkSpec';

describe('checker settings', () => {
  beforeEach(() => fake.reset());

  it('by default: tsc and no other check, suppressions refused', () => {
    const s = new ConfigReader().read();
    assert.strictEqual(s.diagnosticsSource, 'checks');
    assert.deepStrictEqual(s.checks, []);
    assert.strictEqual(s.loop.allowSuppressions, undefined);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const manifest = require('../../../package.json').contributes.configuration.properties as Record<string, { default: unknown }>;
    assert.deepStrictEqual(manifest['greenloop.checks'].default, []);
    assert.strictEqual(manifest['greenloop.allowSuppressions'].default, false);
    assert.strictEqual(manifest['greenloop.diagnostics.source'].default, 'checks');
  });

  it('reads the checks, protects the package.json scripts they run, and lets suppressions through when allowed', () => {
    fake.settings.set('greenloop.checks', ['npm run lint', { command: 'mypy app', format: 'mypy', warnings: true }]);
    fake.settings.set('greenloop.allowSuppressions', true);
    const s = new ConfigReader().read();
    assert.deepStrictEqual(s.checks, ['npm run lint', { command: 'mypy app', format: 'mypy', warnings: true }]);
    assert.deepStrictEqual(s.loop.checkScripts, ['lint', 'postlint', 'prelint']);
    assert.strictEqual(s.loop.allowSuppressions, true);
    assert.deepStrictEqual(s.checks.map(checkSpecFromSetting), [{ command: 'npm run lint' }, { command: 'mypy app', format: 'mypy', warnings: true }]);
  });

  it('with diagnostics.source "tsc" or "problems" the checks are not run', () => {
    fake.settings.set('greenloop.checks', ['npx eslint --format json src']);
    for (const source of ['tsc', 'problems'] as const) {
      fake.settings.set('greenloop.diagnostics.source', source);
      const s = new ConfigReader().read();
      assert.strictEqual(s.diagnosticsSource, source);
      assert.deepStrictEqual(s.checks, []);
    }
  });

  it('says in one sentence what is wrong with a setting', () => {
    fake.settings.set('greenloop.checks', 'npx eslint .');
    assert.throws(() => new ConfigReader().read(), (e: Error) => e instanceof SettingsError && /greenloop\.checks must be a list of check commands/.test(e.message));
    fake.settings.set('greenloop.checks', []);
    fake.settings.set('greenloop.diagnostics.source', 'lsp');
    assert.throws(() => new ConfigReader().read(), /greenloop\.diagnostics\.source must be one of tsc, checks, problems/);
    assert.throws(() => checkSpecFromSetting({ command: 'ruff check .', format: 'ruff' }), (e: Error) => e instanceof CheckSpecError && /names the format "ruff"; use one of eslint, biome/.test(e.message));
  });

  it('a format after the last colon is split off only when it names one', () => {
    assert.deepStrictEqual(checkSpecFromSetting('mypy app:mypy'), { command: 'mypy app', format: 'mypy' });
    assert.deepStrictEqual(checkSpecFromSetting('npm run lint:ci'), { command: 'npm run lint:ci' });
    assert.deepStrictEqual(checkSpecFromSetting('go vet ./...:govet'), { command: 'go vet ./...', format: 'go-vet' });
    assert.deepStrictEqual(checkSpecFromSetting('gcc -fsyntax-only a.c:auto'), { command: 'gcc -fsyntax-only a.c', format: 'auto' });
  });
});

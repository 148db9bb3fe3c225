// The core must run in plain Node (CLI, mocha): only src/extension may touch `vscode`, and no layer imports one
// above it. The rule lives in scripts/checkLayers.js (`npm run lint:layers`); this runs it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkLayers } = require(path.join(ROOT, 'scripts', 'checkLayers.js')) as { checkLayers: (srcRoot?: string) => string[] };

describe('layering', () => {
  it('keeps vscode out of every layer but the extension, and every import pointing down', () => {
    assert.deepStrictEqual(checkLayers(), []);
  });

  it('would catch a vscode import, and an import of a layer above (the check itself works)', () => {
    const tmp = fs.mkdtempSync(path.join(ROOT, 'src', 'core', '.layer-probe-'));
    try {
      fs.writeFileSync(path.join(tmp, 'bad.ts'), "import * as vscode from 'vscode';\nimport { x } from '../../actors/openaiActor';\n");
      const offences = checkLayers().join('\n');
      assert.match(offences, /bad\.ts: imports vscode/);
      assert.match(offences, /bad\.ts: imports \.\.\/\.\.\/actors\/openaiActor, but core\/ may not depend on actors\//);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

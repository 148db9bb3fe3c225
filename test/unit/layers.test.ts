// The layers read one way (scripts/checkLayers.js, `npm run lint:layers`): this runs the rule on the tree, and proves
// the rule itself bites — on a vscode import, on an adapter that imports the core, and on a core that imports an adapter.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
type Check = (srcRoot?: string, opts?: { strict?: boolean }) => string[];
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkLayers } = require(path.join(ROOT, 'scripts', 'checkLayers.js')) as { checkLayers: Check };

function plant(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

describe('layering', () => {
  it('keeps vscode out of every layer but the extension, and every import pointing down', () => {
    assert.deepStrictEqual(checkLayers(), []);
  });

  it('fails on an import of the core planted in verify/ (an adapter never depends on the loop)', () => {
    const probe = fs.mkdtempSync(path.join(ROOT, 'src', 'verify', '.layer-probe-'));
    try {
      fs.writeFileSync(path.join(probe, 'bad.ts'), "import * as vscode from 'vscode';\nimport { LoopEngine } from '../../core/loop/engine';\n");
      const offences = checkLayers(undefined, { strict: true }).join('\n');
      assert.match(offences, /bad\.ts: imports vscode, but verify\/ must run in plain Node/);
      assert.match(offences, /bad\.ts: imports \.\.\/\.\.\/core\/loop\/engine, but verify\/ may not depend on core\//);
    } finally {
      fs.rmSync(probe, { recursive: true, force: true });
    }
  });

  it('fails both ways and across: core → adapter, adapter → adapter, ports → core, store → core, an unplaced folder, vscode in the core', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-layers-'));
    try {
      plant(root, 'core/loop/a.ts', "import { CommandVerifier } from '../../verify/commandVerifier';\n");
      plant(root, 'actors/b.ts', "import { openSnapshotStore } from '../snapshot/gitSnapshotStore';\n");
      plant(root, 'ports/c.ts', "import type { RunEnd } from '../core/loop/runEnd';\n");
      plant(root, 'store/d.ts', "import type { LoopEvent } from '../core/loop/events';\n");
      plant(root, 'nowhere/e.ts', 'export const x = 1;\n');
      plant(root, 'core/f.ts', "import { window } from 'vscode';\n");
      const offences = checkLayers(root, { strict: true }).join('\n');
      assert.match(offences, /a\.ts: imports \.\.\/\.\.\/verify\/commandVerifier, but core\/ may not depend on verify\//);
      assert.match(offences, /b\.ts: imports \.\.\/snapshot\/gitSnapshotStore, but actors\/ may not depend on snapshot\//);
      assert.match(offences, /c\.ts: imports \.\.\/core\/loop\/runEnd, but ports\/ may not depend on core\//);
      assert.match(offences, /d\.ts: imports \.\.\/core\/loop\/events, but store\/ may not depend on core\//);
      assert.match(offences, /e\.ts: src\/nowhere is no layer/);
      assert.match(offences, /f\.ts: imports vscode, but core\/ must run in plain Node/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

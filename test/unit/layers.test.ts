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

  it('keeps each runner a room: no room imports another or the registry, common/ imports no room, runners/ reads only the ground, and only its top-level files are imported from outside', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-rooms-'));
    try {
      plant(root, 'runners/pytest/a.ts', "import { mochaParser } from '../mocha/parser';\nimport { keepLine } from '../common/lineParser';\nimport type { Runner } from '../runner';\n");
      plant(root, 'runners/go/b.ts', "import { RUNNERS } from '../registry';\n");
      plant(root, 'runners/common/c.ts', "import { goParser } from '../go/parser';\n");
      plant(root, 'runners/d.ts', "import { CommandVerifier } from '../verify/commandVerifier';\nimport { pytest } from './pytest/pytest';\n");
      plant(root, 'verify/e.ts', "import { pytestParser } from '../runners/pytest/parser';\nimport { RUNNERS } from '../runners/registry';\n");
      plant(root, 'core/f.ts', "import { tapParser } from '../runners/readers/tap';\nimport { tamperRules } from '../runners/registry';\n");
      plant(root, 'shared/g.ts', "import { RUNNERS } from '../runners/registry';\n");
      const offences = checkLayers(root, { strict: true });
      const of = (file: string) => offences.filter((o) => o.includes(`${file}.ts:`)).join('\n');
      assert.match(of('a'), /imports \.\.\/mocha\/parser, but a runner's room imports no other room \(runners\/mocha\/\)/);
      assert.doesNotMatch(of('a'), /lineParser|\.\.\/runner'/, 'a room reads common/ and the interface');
      assert.match(of('b'), /imports \.\.\/registry, but a room and runners\/go\/ import only runner\.ts and types\.ts/);
      assert.match(of('c'), /imports \.\.\/go\/parser, but runners\/common\/ is shared by the rooms and imports none of them/);
      assert.match(of('d'), /imports \.\.\/verify\/commandVerifier, but runners\/ may not depend on verify\//);
      assert.doesNotMatch(of('d'), /pytest/, 'the registry and the other top-level files read the rooms');
      assert.match(of('e'), /imports \.\.\/runners\/pytest\/parser, but outside src\/runners only its top-level files are imported/);
      assert.doesNotMatch(of('e'), /imports \.\.\/runners\/registry/);
      assert.match(of('f'), /imports \.\.\/runners\/readers\/tap, but outside src\/runners only its top-level files/);
      assert.doesNotMatch(of('f'), /imports \.\.\/runners\/registry/, 'the core reads the runners\' facts');
      assert.match(of('g'), /imports \.\.\/runners\/registry, but shared\/ may not depend on runners\//);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

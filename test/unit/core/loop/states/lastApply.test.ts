// The in-memory way back used when the snapshot store is gone: it undoes the last edit, never a person's change.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LastApplyMemory } from '../../../../../src/core/loop/states/lastApply';

describe('LastApplyMemory', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-undo-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('puts back overwritten files, removes created ones, and leaves a file changed since the edit as it is', async () => {
    fs.writeFileSync(path.join(dir, 'a.js'), 'edited a');
    fs.writeFileSync(path.join(dir, 'new.js'), 'created');
    fs.writeFileSync(path.join(dir, 'b.js'), 'the person saved this after the edit');
    const memory = new LastApplyMemory();
    memory.remember('snap-1', [
      { rel: 'a.js', before: Buffer.from('original a'), after: 'edited a' },
      { rel: 'new.js', before: null, after: 'created' },
      { rel: 'b.js', before: Buffer.from('original b'), after: 'edited b' },
    ]);
    assert.equal(memory.reaches('snap-1'), true);
    assert.equal(memory.reaches('snap-0'), false);
    const undone = await memory.undo(dir);
    assert.deepEqual(undone, { restored: ['a.js', 'new.js'], leftAlone: ['b.js'] });
    assert.equal(fs.readFileSync(path.join(dir, 'a.js'), 'utf8'), 'original a');
    assert.equal(fs.existsSync(path.join(dir, 'new.js')), false);
    assert.equal(fs.readFileSync(path.join(dir, 'b.js'), 'utf8'), 'the person saved this after the edit');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['a.js', 'b.js'], 'no temp file left');
    assert.equal(memory.reaches('snap-1'), false, 'an undo is done once');
  });
});

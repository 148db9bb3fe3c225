// Two changes of one text merged line by line (what the re-judge carries onto the best state): neighbours merge,
// only the very same lines conflict, and the bytes of every line (line ends, a missing last one) stay as they were.
import * as assert from 'node:assert/strict';
import { mergeHunks, splitLines, type Hunk } from '../../../src/snapshot/lineMerge';

const hunk = (start: number, end: number, lines: string[], newStart = start + 1): Hunk => ({ start, end, lines, newStart, newCount: lines.length });
const BASE = splitLines('a\nb\nc\nd\n');

describe('line merge of two changes', () => {
  it('splits lines with their own ends, a last line without one included', () => {
    assert.deepEqual(splitLines('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
    assert.deepEqual(splitLines(''), []);
  });

  it('merges changes of neighbouring lines', () => {
    const r = mergeHunks(BASE, [hunk(3, 4, ['D\n'])], [hunk(0, 3, ['A\n', 'B\n', 'C\n'])]);
    assert.deepEqual(r, { ok: true, lines: ['A\n', 'B\n', 'C\n', 'D\n'] });
  });

  it('puts lines added where the other change begins before it, and where it ends after it', () => {
    assert.deepEqual(mergeHunks(BASE, [hunk(1, 2, ['B\n'])], [hunk(1, 1, ['new\n'])]), { ok: true, lines: ['a\n', 'new\n', 'B\n', 'c\n', 'd\n'] });
    assert.deepEqual(mergeHunks(BASE, [hunk(1, 2, ['B\n'])], [hunk(2, 2, ['new\n'])]), { ok: true, lines: ['a\n', 'B\n', 'new\n', 'c\n', 'd\n'] });
  });

  it('makes a change both sides made alike once', () => {
    assert.deepEqual(mergeHunks(BASE, [hunk(2, 3, ['C\n'])], [hunk(2, 3, ['C\n'])]), { ok: true, lines: ['a\n', 'b\n', 'C\n', 'd\n'] });
  });

  it('conflicts on the very same line, on lines added inside the other change, and on lines both added at one place', () => {
    const same = mergeHunks(BASE, [hunk(3, 4, ['D\n'])], [hunk(2, 4, ['C\n', 'd2\n'])]);
    assert.equal(same.ok, false);
    assert.equal(mergeHunks(BASE, [hunk(1, 3, [])], [hunk(2, 2, ['x\n'])]).ok, false);
    assert.equal(mergeHunks(BASE, [hunk(2, 2, ['x\n'])], [hunk(2, 2, ['y\n'])]).ok, false);
  });

  it('removes lines next to a change of the other side', () => {
    assert.deepEqual(mergeHunks(BASE, [hunk(0, 1, [])], [hunk(1, 2, ['B\n'])]), { ok: true, lines: ['B\n', 'c\n', 'd\n'] });
  });
});

import * as assert from 'node:assert/strict';
import { parseEditBlocks } from '../../../../src/core/edits/parseBlocks';
import { proposalHash } from '../../../../src/core/edits/proposalHash';

const F = '```';

const answer = (prose: string, pathLine: string, eol: string, trailing: string) =>
  [
    prose,
    '',
    pathLine,
    `${F}ts`,
    '<<<<<<< SEARCH',
    `    return a - b;${trailing}`,
    '=======',
    '    return a + b;',
    '>>>>>>> REPLACE',
    F,
  ].join(eol);

describe('proposalHash', () => {
  it('gives the same hash to the same edit proposed with different prose, path spelling, CRLF and trailing blanks', () => {
    const first = parseEditBlocks(answer('The sign is wrong in add().', 'src/calc.ts', '\n', ''));
    const again = parseEditBlocks(answer('Let me try again: add() subtracts instead of adding.', '**./src//calc.ts**', '\r\n', '   '));
    assert.deepEqual(first.errors, []);
    assert.deepEqual(again.errors, []);
    const h = proposalHash(first.blocks);
    assert.match(h, /^[0-9a-f]{64}$/);
    assert.equal(proposalHash(again.blocks), h);
  });

  it('gives different hashes to different edits, different files and a different block order', () => {
    const base = [
      { path: 'src/a.ts', search: 'x\n', replace: 'y\n' },
      { path: 'src/b.ts', search: 'p\n', replace: 'q\n' },
    ];
    const h = proposalHash(base);
    assert.notEqual(proposalHash([{ ...base[0]!, replace: 'z\n' }, base[1]!]), h);
    assert.notEqual(proposalHash([{ ...base[0]!, path: 'src/c.ts' }, base[1]!]), h);
    assert.notEqual(proposalHash([base[1]!, base[0]!]), h);
    // Indentation is meaning in Python and YAML, so it stays part of the identity.
    assert.notEqual(proposalHash([{ ...base[0]!, replace: '  y\n' }, base[1]!]), h);
    // Moving text between SEARCH and REPLACE is a different edit, not the same characters.
    assert.notEqual(proposalHash([{ path: 'a', search: 'xy', replace: '' }]), proposalHash([{ path: 'a', search: 'x', replace: 'y' }]));
  });
});

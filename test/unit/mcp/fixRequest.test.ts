import * as assert from 'assert';
import { fixRequestFromFlags } from '../../../src/flags/fixRequest';
import type { Actor } from '../../../src/ports/actor';
import { tempDir } from '../support/cli';

// fix_until_green's arguments are the host's to decide per call: they override the server's own flags both ways.
describe('a fix run\'s request from flags and a tool call\'s arguments', () => {
  const actor = { label: 'sampling', propose: async () => ({ text: '' }) } as unknown as Actor;
  const values = (extra: Record<string, unknown>) => ({ cwd: tempDir('fix-request-'), 'test-cmd': 'true', ...extra });

  it('judges the candidates in parallel when the call asks for it, though the server was started without the flag', () => {
    const { request } = fixRequestFromFlags(values({ candidates: '3' }) as never, { actor, candidatesParallel: true });
    assert.strictEqual(request.config.candidates, 3);
    assert.strictEqual(request.config.candidatesParallel, true);
  });

  it('judges them one after another when the call says so, though the server was started with --candidates-parallel', () => {
    const { request } = fixRequestFromFlags(values({ candidates: '3', 'candidates-parallel': true }) as never, { actor, candidatesParallel: false });
    assert.ok(!request.config.candidatesParallel);
  });

  it('keeps the server\'s flag when the call does not say', () => {
    const { request } = fixRequestFromFlags(values({ candidates: '3', 'candidates-parallel': true }) as never, { actor });
    assert.strictEqual(request.config.candidatesParallel, true);
  });
});

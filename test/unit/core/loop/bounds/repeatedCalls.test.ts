// An agent's attempt that makes its previous attempt's edit calls again, the tests failing as they did, proposes the
// same edit again (issue 38), whatever its diff; a repeat the tests see, or one with progress, is not.
import * as assert from 'assert';
import { repeatedAgentCalls } from '../../../../../src/core/loop/bounds/repeatedCalls';
import { escalate } from '../../../../../src/core/loop/bounds/termination';
import type { RunState } from '../../../../../src/ports/runState';

const CWD = '/tmp/gl-ws/calc3';
const EDIT = { key: 'k-edit', call: 'edit {"file_path":"calc.js","new_string":"function add(a, b) { // checked","old_string":"function add(a, b) {"}' };
const BUILD = { key: 'k-build', call: 'run_shell_command {"command":"npm run build"}' };

/** An agent's attempt: its verdict, the calls that may have changed files, and what the one failing test said. */
function attempt(n: number, verdict: string, calls: Array<{ key: string; call: string }> | null, said: string) {
  const failures = [{ id: 'add adds', message: `AssertionError: Expected values to be strictly equal:\n\n${said}\n\n    at TestContext.<anonymous> (${CWD}/test/calc.test.js:${n + 6}:10)` }];
  return {
    n, verdict, failing: ['add adds'],
    witness: { failing: ['add adds'], failures, diagnostics: [], loadErrorFiles: [] },
    ...(calls ? { agent: { requests: 6, gatewayAnswers: 1, stoppedBy: null, exitCode: 0, lastMessage: '', output: '', log: [], exactTokens: true, changingCalls: calls } } : {}),
  };
}
const stateOf = (...iterations: object[]) => ({ cwd: CWD, iterations } as unknown as RunState);
const check = (state: RunState) => repeatedAgentCalls(state, (text) => escalate('repeated-proposal', text));

describe('an agent attempt that repeats its previous attempt\'s edit calls', () => {
  it('is a repeated proposal when the calls are the same set and the tests say the same (where they failed aside)', () => {
    const stop = check(stateOf(attempt(1, 'no-progress', [EDIT, BUILD], '-1 !== 5'), attempt(2, 'no-progress', [BUILD, EDIT], '-1 !== 5')));
    assert.equal(stop?.reason, 'repeated-proposal');
    assert.match(stop!.text, /^Attempt 2 made the same edit calls as attempt 1 \(`run_shell_command \{"command":"npm run build"\}`, `edit \{"file_path":"calc\.js"/);
  });

  it('is none when the tests say something new (a counter one step further), or the attempt made progress', () => {
    assert.equal(check(stateOf(attempt(1, 'no-progress', [EDIT], '1 !== 3'), attempt(2, 'no-progress', [EDIT], '2 !== 3'))), null);
    assert.equal(check(stateOf(attempt(1, 'progress', [EDIT], '-1 !== 5'), attempt(2, 'progress', [EDIT], '-1 !== 5'))), null);
  });

  it('is none when a call is new or missing, when no call changed anything, or when the attempt before was no agent\'s', () => {
    assert.equal(check(stateOf(attempt(1, 'no-progress', [EDIT], '-1 !== 5'), attempt(2, 'no-progress', [EDIT, BUILD], '-1 !== 5'))), null);
    assert.equal(check(stateOf(attempt(1, 'no-progress', [EDIT, BUILD], '-1 !== 5'), attempt(2, 'no-progress', [EDIT], '-1 !== 5'))), null);
    assert.equal(check(stateOf(attempt(1, 'no-progress', [], '-1 !== 5'), attempt(2, 'no-progress', [], '-1 !== 5'))), null);
    assert.equal(check(stateOf(attempt(0, 'progress', null, '-1 !== 5'), attempt(1, 'no-progress', [EDIT], '-1 !== 5'))), null);
    assert.equal(check(stateOf(attempt(1, 'no-progress', [EDIT], '-1 !== 5'))), null);
  });
});

// An agent that runs `python -m unittest` itself: the gateway reads its runs as test runs (real captured output), with
// the IDs the verifier gives the same tests, so an agent re-running a suite that fails as much as before is seen stalling.
import { strict as assert } from 'assert';
import * as path from 'node:path';
import { readTestRun } from '../../../src/actors/gateway/agentTestRun';
import { StallWatch } from '../../../src/actors/gateway/stallWatch';
import { readCapture } from '../parsers/support';
import { qwenShellResult } from '../support/agentToolOutput';

const SUITE = path.join(__dirname, '..', '..', 'fixtures', 'runners', 'unittest');

describe('the gateway reads an agent\'s own python -m unittest runs', () => {
  it('as a test run failing the suite\'s tests by their contract IDs, subtests included', () => {
    const run = readTestRun(readCapture('unittest', 'default-mixed.txt'), SUITE, 'python3 -m unittest');
    assert.ok(run, 'a test run');
    assert.ok(run.failing.has('tests/test_calc.py > TestCalc > test_many'));
    assert.equal(run.failing.size, 7);
    const broken = readTestRun(readCapture('unittest', 'default-loaderror.txt'), SUITE, 'python3 -m unittest discover -s broken');
    assert.ok(broken?.failing.has('(the test suite did not load)'));
  });

  it('so re-running it failing as many tests twice after the first is a stall', async () => {
    const w = new StallWatch(SUITE);
    const messages: object[] = [{ role: 'system', content: 'You are Qwen Code' }, { role: 'user', content: 'Fix the tests.' }];
    const said: Array<string | null> = [];
    for (let i = 1; i <= 3; i++) {
      const id = `call_${i}`;
      messages.push(
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'run_shell_command', arguments: JSON.stringify({ command: 'python3 -m unittest' }) } }] },
        { role: 'tool', tool_call_id: id, content: [{ type: 'text', text: qwenShellResult(readCapture('unittest', i === 2 ? 'default-mixed-old.txt' : 'default-mixed.txt')) }] },
        { role: 'assistant', content: null, tool_calls: [{ id: `edit_${i}`, type: 'function', function: { name: 'edit', arguments: JSON.stringify({ file_path: `${SUITE}/calc.py`, n: i }) } }] },
        { role: 'tool', tool_call_id: `edit_${i}`, content: [{ type: 'text', text: `edited ${i} time(s)` }] },
      );
      said.push(await w.check(messages.slice(0, -2)));
    }
    assert.deepEqual(said, [null, null, 'tests-stalled']);
  });
});

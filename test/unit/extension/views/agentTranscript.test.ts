import * as assert from 'assert';
import { agentTranscriptText, parseTranscriptQuery, transcriptUriParts } from '../../../../src/extension/views/agentTranscript';
import type { AgentAttempt } from '../../../../src/ports/actor';

const attempt: AgentAttempt = {
  requests: 2,
  gatewayAnswers: 1,
  stoppedBy: 'request-cap',
  exitCode: 0,
  lastMessage: 'I fixed add() in src/calc.js.',
  output: 'reading src/calc.js\n```\nedited | done\n```\n',
  log: [
    { n: 1, answeredBy: 'upstream', status: 200, promptTokens: 900, completionTokens: 40, calls: [], answer: 'Let me read calc.js' },
    { n: 2, answeredBy: 'upstream', status: 200, promptTokens: 1200, completionTokens: 60, calls: ['read_file', 'edit'], answer: 'Fixed | done' },
    { n: 3, answeredBy: 'request-cap', status: 200, promptTokens: 0, completionTokens: 0, calls: ['run_shell'], answer: 'Stop now.' },
  ],
  exactTokens: true,
};

describe('agent transcript document', () => {
  it('shows the counts, what was put back, the last message, every request as a table row and the output tail', () => {
    const text = agentTranscriptText(3, attempt, [{ path: 'test/calc.test.js', reason: 'Test files are protected.' }]);
    assert.match(text, /^# Agent, attempt 3\n\n2 requests \(1 answered by Greenloop: request-cap\), exit 0\.\n/);
    assert.match(text, /## Put back\n\n- `test\/calc\.test\.js`: Test files are protected\./);
    assert.match(text, /## The model's last message\n\n```text\nI fixed add\(\) in src\/calc\.js\.\n```/);
    assert.ok(text.includes('| 2 | the model | 200 | 1200 / 60 | read_file, edit | Fixed \\| done |'), 'a pipe in an answer stays in its cell');
    assert.ok(text.includes('| 3 | Greenloop: request-cap | 200 | 0 / 0 | run_shell | Stop now. |'));
    // The output holds a fence of its own: the block around it is longer, so it cannot end early.
    assert.match(text, /## The agent's output \(its tail\)\n\n````text\nreading src\/calc\.js\n```\nedited \| done\n```\n````/);
  });

  it('says when nothing went through the gateway and the agent printed nothing', () => {
    const text = agentTranscriptText(1, { ...attempt, requests: 0, gatewayAnswers: 0, stoppedBy: null, exitCode: null, lastMessage: '', output: '', log: [], exactTokens: false });
    assert.match(text, /0 requests, stopped before it exited\. Some token counts are estimates\./);
    assert.match(text, /_No request went through Greenloop's gateway\._/);
    assert.match(text, /_\(no output\)_/);
  });

  it('addresses a transcript by folder, run and attempt, and refuses addresses it did not make', () => {
    const parts = transcriptUriParts({ folder: 'file:///ws', runId: 'run-1', n: 2 });
    assert.strictEqual(parts.scheme, 'greenloop-transcript');
    assert.match(parts.path, /attempt 2\.md$/);
    assert.deepStrictEqual(parseTranscriptQuery(parts.query), { folder: 'file:///ws', runId: 'run-1', n: 2 });
    assert.strictEqual(parseTranscriptQuery('{"folder":"file:///ws","runId":"r","n":"2"}'), null);
    assert.strictEqual(parseTranscriptQuery('not json'), null);
  });
});

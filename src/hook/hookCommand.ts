// `greenloop hook claude-stop`: a Claude Code Stop hook. Claude Code runs it when its agent is about to end a turn,
// with the event as JSON on stdin. Greenloop checks the workspace with the session's loop state (kept per Claude
// session id): while tests fail and the bounds allow another attempt it blocks the stop, giving the agent the failing
// tests and what was rolled back as its next instruction; when green, or when stagnation, a cycle or a budget trips,
// it lets the agent stop and tells the person why. Errors exit 1 (Claude Code shows them and lets the agent stop):
// exit 2 would block the stop with the error as the agent's instruction.
import { parseArgs } from 'node:util';
import { checkSessionFromFlags } from '../flags/sessionFlags';
import { SESSION_FLAGS } from '../flags/commandFlags';
import { UsageError } from '../flags/usageError';
import { notStartedSentence } from '../flags/answerFlags';
import { runSecrets } from '../base/secretEnv';
import type { CheckAnswer } from '../session/checkAnswer';

const MAX_EVENT_BYTES = 1024 * 1024;

interface StopEvent {
  session_id?: unknown;
  cwd?: unknown;
  hook_event_name?: unknown;
  stop_hook_active?: unknown;
}

/**
 * An error still answers on stdout in JSON, `{"outcome": "error", "reasonText": …, "systemMessage": "Greenloop: …"}`,
 * for a caller that reads it; Claude Code reads only stderr's sentence on exit 1 (main.ts), and lets the agent stop.
 */
export async function hookCommand(argv: string[]): Promise<number> {
  try {
    return await hookOnce(argv);
  } catch (err) {
    const sentence = notStartedSentence(err, runSecrets({ env: process.env }).redactor);
    process.stdout.write(`${JSON.stringify({ outcome: 'error', reasonText: sentence, systemMessage: `Greenloop: ${sentence}` })}\n`);
    throw err;
  }
}

async function hookOnce(argv: string[]): Promise<number> {
  const [kind, ...rest] = argv;
  if (kind !== 'claude-stop') throw new HookError(`Unknown hook "${kind ?? ''}"; the one Greenloop offers is claude-stop (a Claude Code Stop hook).`);
  const { values } = parseArgs({ args: rest, options: SESSION_FLAGS, strict: true });
  const event = await readEvent();
  const name = event.hook_event_name;
  // Registered under SessionStart too, the first check records the workspace before the agent's first edit.
  const starting = name === 'SessionStart' || name === 'UserPromptSubmit';
  if (name !== 'Stop' && name !== 'SubagentStop' && !starting) throw new HookError(`greenloop hook claude-stop handles Stop (and SessionStart) events, not ${JSON.stringify(name)}; register it under "Stop" in .claude/settings.json.`);
  if (typeof event.session_id !== 'string' || !event.session_id) throw new HookError('The Stop event has no session_id, so Greenloop cannot keep the loop state of this session.');
  const cwd = typeof event.cwd === 'string' && event.cwd ? event.cwd : undefined;
  const session = await checkSessionFromFlags(values, `claude:${event.session_id}`, 'claude-code', values.cwd ?? cwd);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    if (starting) {
      // Only the baseline: a later start event in the same session changes nothing.
      if (!(await session.state())) await session.check(controller.signal);
      process.stdout.write('{}\n');
      return 0;
    }
    const answer = await session.check(controller.signal);
    process.stdout.write(`${JSON.stringify(hookOutput(answer))}\n`);
    return 0;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

/** Block the stop while the loop may go on; otherwise let the agent stop and tell the person why. */
export function hookOutput(answer: CheckAnswer): object {
  if (answer.decision === 'continue') {
    return { decision: 'block', reason: `Greenloop (the tests decide, not you): ${answer.text}\nFix the failing tests in the code under test (never by changing the tests), then stop again to be checked.` };
  }
  const why = answer.green ? `${answer.note}.` : `stopped (${answer.reason}): ${answer.note} The workspace is left at the best state (${answer.failingBest} failing, ${answer.failingAtStart} at the start).`;
  return { systemMessage: `Greenloop: ${why}` };
}

async function readEvent(): Promise<StopEvent> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).byteLength;
    if (bytes > MAX_EVENT_BYTES) throw new HookError('The hook event on stdin is larger than 1 MB; Claude Code sends a small JSON object.');
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') throw new Error('not an object');
    return parsed as StopEvent;
  } catch {
    throw new HookError('The hook event on stdin is not a JSON object; run this command as a Claude Code hook (it sends the event as JSON).');
  }
}

/** A hook failure in one sentence: main.ts exits 1 for it, so Claude Code shows it and lets the agent stop. */
export class HookError extends UsageError {}

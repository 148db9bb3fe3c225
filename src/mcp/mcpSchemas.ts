// The shapes `greenloop mcp` tools answer with (structuredContent), declared once so clients get an output schema.
import { z } from 'zod';

export const checkAnswerShape = {
  session: z.string(),
  check: z.number().describe('This check\'s number; check 0 recorded the baseline.'),
  maxChecks: z.number(),
  verdict: z.enum(['baseline', 'green', 'progress', 'no-progress', 'regression', 'invalid-proposal']),
  decision: z.enum(['continue', 'stop']).describe('continue: fix and call verify again; stop: end your work now and tell the person the note.'),
  reason: z.string().nullable().describe('Why the session stops: green, stagnation, cycle, repeated-proposal, budget-iterations, budget-time, …'),
  green: z.boolean(),
  failing: z.array(z.object({ id: z.string(), file: z.string().optional(), message: z.string() })),
  loadErrorFiles: z.array(z.string()).describe('Test files that did not load (none of their tests ran), counted apart from the failing tests.'),
  diagnostics: z.array(z.object({ file: z.string(), line: z.number().optional(), code: z.string(), message: z.string() })),
  ran: z.number().nullable(),
  missing: z.array(z.string()).describe('Tests that ran before and are not reported now: never counted as fixed.'),
  flaky: z.array(z.string()),
  rolledBack: z.object({ files: z.array(z.string()), why: z.string() }).nullable(),
  withoutProgress: z.number(),
  patience: z.number(),
  failingAtStart: z.number(),
  failingBest: z.number(),
  note: z.string(),
  text: z.string(),
};

export const rollbackShape = {
  restored: z.array(z.string()).describe('Files put back.'),
  to: z.enum(['best', 'baseline']),
  answer: z.object(checkAnswerShape),
};

export const statusShape = {
  started: z.boolean().describe('False before the first verify.'),
  cwd: z.string(),
  answer: z.object(checkAnswerShape).nullable(),
};

export const fixShape = {
  outcome: z.enum(['green', 'escalated', 'cancelled', 'error']),
  reason: z.string().nullable(),
  reasonText: z.string(),
  attempts: z.number(),
  failingAtStart: z.number(),
  failingAtEnd: z.number(),
  modelCalls: z.number(),
  model: z.string().describe('Whose model proposed the edits: the client\'s (sampling) or the configured actor.'),
};

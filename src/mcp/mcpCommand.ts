// `greenloop mcp`: a Model Context Protocol server on stdio that any agent (Claude Code, VS Code, Cursor, Codex) can
// call to learn from code — not from its own opinion — whether it is done, whether it is making progress, and when
// it must stop; and to roll back what made things worse. One server process is one check session on one folder.
import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { checkSessionFromFlags, type SessionFlagValues } from '../flags/sessionFlags';
import { MCP_FLAGS } from '../flags/commandFlags';
import { VERSION } from '../flags/version';
import { checkAnswerShape, fixShape, rollbackShape, statusShape } from './mcpSchemas';
import { checkAnswer } from '../session/checkAnswer';
import type { CheckSession } from '../session/checkSession';
import { SamplingActor } from './samplingActor';
import { fixRequestFromFlags } from '../flags/fixRequest';
import { openFixRun } from '../session/runFix';
import { actorFromFlags, modelKeyFromFlags } from '../flags/fixFlags';
import { secretsFromFlags } from '../flags/secretFlags';
import type { Actor } from '../ports/actor';
import { progressLine } from '../session/progressLine';
import type { RunState } from '../ports/runState';
import { notLoadedText } from '../shared/plainWords';
import { MAX_CANDIDATES } from '../shared/config';


export async function mcpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: MCP_FLAGS, strict: true });
  const server = new McpServer({ name: 'greenloop', version: VERSION }, {
    instructions: 'Greenloop decides from the tests, not from your judgement, when coding work is done. After each change, call verify; '
      + 'obey its decision: "continue" means fix what it names and verify again; "stop" means end your work and tell the person its note. '
      + 'A change that broke passing tests is rolled back by verify itself. Never edit tests to make them pass.',
  });
  const sessionKey = `mcp:${randomUUID()}`;
  let session: CheckSession | null = null;
  let sessionCwd: string | null = null;

  /** The folder: --cwd, else the client's first root, else where the server was started. */
  const folder = async (): Promise<string> => {
    if (values.cwd) return path.resolve(values.cwd);
    if (server.server.getClientCapabilities()?.roots) {
      const { roots } = await server.server.listRoots().catch(() => ({ roots: [] as Array<{ uri: string }> }));
      const first = roots.find((r) => r.uri.startsWith('file://'));
      if (first) return fileURLToPath(first.uri);
    }
    return process.cwd();
  };
  const sessionFor = async (): Promise<CheckSession> => {
    const cwd = await folder();
    if (!session || sessionCwd !== cwd) {
      session = await checkSessionFromFlags(values as SessionFlagValues, sessionKey, `mcp:${server.server.getClientVersion()?.name ?? 'client'}`, cwd);
      sessionCwd = cwd;
    }
    return session;
  };

  server.registerTool('verify', {
    title: 'Verify the workspace (Greenloop)',
    description: 'Runs the tests (and tsc) on the workspace as it is now and judges it against the best state of this session: '
      + 'green, progress, regression (rolled back at once) or no progress, and decides continue or stop (green, stagnation, cycle, budget). Call it after every change.',
    inputSchema: { restart: z.boolean().optional().describe('Start a new session from the workspace as it is now.') },
    outputSchema: checkAnswerShape,
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  }, async ({ restart }, extra) => toolAnswer(async () => {
    const answer = await (await sessionFor()).check(extra.signal, { restart });
    return { text: answer.text, structured: answer };
  }));

  server.registerTool('rollback', {
    title: 'Roll back (Greenloop)',
    description: 'Puts the workspace back to the best state this session verified (fewest failing tests), or to the baseline of its first check.',
    inputSchema: { to: z.enum(['best', 'baseline']).default('best') },
    outputSchema: rollbackShape,
    annotations: { destructiveHint: true },
  }, async ({ to }, extra) => toolAnswer(async () => {
    const { restored, answer } = await (await sessionFor()).rollback(to, extra.signal);
    return { text: `Rolled back to the ${to} state: ${restored.length ? restored.join(', ') : 'nothing differed'}.\n${answer.text}`, structured: { restored, to, answer } };
  }));

  server.registerTool('status', {
    title: 'Session status (Greenloop)',
    description: 'This session\'s loop state without running anything: checks so far, best and current failing tests, the last decision.',
    inputSchema: {},
    outputSchema: statusShape,
    annotations: { readOnlyHint: true },
  }, async () => toolAnswer(async () => {
    const s = await sessionFor();
    const state = await s.state();
    const answer = state ? checkAnswer(sessionKey, state) : null;
    return { text: answer ? answer.text : 'No check yet: call verify after your first change (or now, to record the baseline).', structured: { started: Boolean(state), cwd: sessionCwd ?? '', answer } };
  }));

  server.registerTool('fix_until_green', {
    title: 'Fix until green (Greenloop)',
    description: 'Runs Greenloop\'s bounded loop on the workspace: a model proposes edits, the tests judge each, regressions are rolled back, '
      + 'and the loop stops at green, stagnation, a cycle or a budget. Uses your own model through sampling when you offer it.',
    inputSchema: {
      maxIterations: z.number().int().min(1).max(50).optional().describe('Most attempts (default: the server\'s setting, 8).'),
      candidates: z.number().int().min(1).max(MAX_CANDIDATES).optional().describe('Answers per attempt, each tried from the same state, the best kept (default: the server\'s --candidates, 1).'),
      candidatesParallel: z.boolean().optional().describe('Judge the candidates at the same time, each in its own copy of the workspace, when the tests can run side by side (default: the server\'s --candidates-parallel, off).'),
    },
    outputSchema: fixShape,
    annotations: { destructiveHint: true },
  }, async ({ maxIterations, candidates, candidatesParallel }, extra) => toolAnswer(async () => {
    const cwd = await folder();
    const actor = chooseActor(server, values as SessionFlagValues, cwd);
    const token = extra._meta?.progressToken;
    let done = 0;
    const { request } = fixRequestFromFlags(values as SessionFlagValues, { cwd, actor, maxIterations, candidates, candidatesParallel });
    const fixRun = await openFixRun({
      ...request,
      onEvent: (e) => {
        if (token === undefined) return;
        if (e.type === 'verified') done = e.n;
        const message = progressLine(e);
        if (!message || (e.type !== 'iteration-started' && e.type !== 'verified' && e.type !== 'run-started')) return;
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total: maxIterations ?? 8, message: message.replace(/^greenloop: /, '') } });
      },
    });
    const { state, saveError } = await fixRun.run(extra.signal);
    if (saveError) throw saveError;
    const structured = {
      outcome: state.outcome === 'running' ? 'error' as const : state.outcome, reason: state.reason, reasonText: state.reasonText,
      attempts: state.iterations.length, failingAtStart: state.baseline.witness.failing.length, failingAtEnd: state.current.witness.failing.length,
      modelCalls: state.llmCalls, model: actor.label,
    };
    const text = `${structured.outcome}${state.reason ? ` (${state.reason})` : ''} after ${structured.attempts} attempt(s): ${state.reasonText} ${countsSentence(state)}`;
    return { text, structured };
  }));

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}

/** The client's model when it can sample; else the actor the server was started with; else a clear error. */
function chooseActor(server: McpServer, values: SessionFlagValues, cwd: string): Actor {
  if (server.server.getClientCapabilities()?.sampling) return new SamplingActor(server.server, server.server.getClientVersion()?.name ?? 'client');
  if (!values.actor && !values.agent && !values['actor-cmd'] && !values['base-url']) {
    throw new Error('fix_until_green needs a model: this client offers no sampling, and the server was started without one (greenloop mcp --actor openai --base-url URL --model NAME, or --agent qwen).');
  }
  const model = modelKeyFromFlags(values);
  const { withheld } = secretsFromFlags(values, model);
  return actorFromFlags(values, cwd, model, withheld);
}

/** A tool's result: structured content and its text, or a tool error in one sentence (never a protocol error). */
async function toolAnswer(work: () => Promise<{ text: string; structured: object }>): Promise<CallToolResult> {
  try {
    const { text, structured } = await work();
    return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
  } catch (err) {
    return { content: [{ type: 'text', text: (err as Error).message.split('\n')[0]! }], isError: true };
  }
}

/** Counts the tests never gave are no counts: "Failing: 0 → 0" would read as nothing left to fix. */
function countsSentence(state: RunState): string {
  const start = state.baseline.witness;
  const end = state.current.witness;
  if (start.unmeasured || end.unmeasured) return `No test count: the tests gave no usable result${start.unmeasured ? '' : ` (${start.failing.length} failing at the start)`}.`;
  const notLoaded = end.loadErrorFiles?.length ? `, ${notLoadedText(end.loadErrorFiles.length)}` : '';
  return `Failing: ${start.failing.length} → ${end.failing.length}${notLoaded}.`;
}

// `greenloop mcp` as an MCP client sees it: the official SDK Client over stdio against the built dist/cli.js, on real
// git temp repos with the real test runner. Edits are made between calls, as an agent would make them.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ensureCliBuilt, tempDir, tempProject } from '../support/cli';
import { directTestCommand } from '../support/fixHarness';
import { FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

const FIXED_ADD = (src: string) => src.replace('return a - b;', 'return a + b;');
const FIXED_MUL = (src: string) => src.replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;');
const BROKEN_NEG = (src: string) => src.replace('return -a;', 'return a;');

describe('greenloop mcp (an MCP client over stdio)', function () {
  this.timeout(120_000);
  let project: string;
  let stateDir: string;
  let client: Client;

  async function connect(opts: { cwd?: string; sampling?: (prompt: string) => Promise<string>; extra?: string[] } = {}): Promise<Client> {
    const c = new Client({ name: 'test-agent', version: '1.0.0' }, { capabilities: opts.sampling ? { sampling: {} } : {} });
    if (opts.sampling) {
      const answer = opts.sampling;
      c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
        const first = req.params.messages[0]!.content as { type: string; text: string };
        return { role: 'assistant', model: 'client-model', content: { type: 'text', text: await answer(first.text) } };
      });
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ensureCliBuilt(), 'mcp', '--cwd', opts.cwd ?? project, '--tsc', 'off', '--state-dir', stateDir, ...directTestCommand(opts.cwd ?? project), ...(opts.extra ?? [])],
      stderr: 'pipe',
    });
    await c.connect(transport);
    return c;
  }

  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('state');
  });
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    fs.rmSync(project, { recursive: true, force: true });
  });

  const calc = () => path.join(project, 'src', 'calc.js');
  const edit = (change: (s: string) => string) => fs.writeFileSync(calc(), change(fs.readFileSync(calc(), 'utf8')));
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const res = await client.callTool({ name, arguments: args });
    return res as { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: any };
  };

  it('lists its tools with input and output schemas', async () => {
    client = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['fix_until_green', 'rollback', 'status', 'verify']);
    const verify = tools.find((t) => t.name === 'verify')!;
    assert.ok(verify.outputSchema?.properties?.decision, 'verify declares its decision in an output schema');
    assert.deepEqual((tools.find((t) => t.name === 'rollback')!.inputSchema.properties as any).to.enum, ['best', 'baseline']);
  });

  it('judges each change: progress continues, a regression is rolled back at once, no progress twice stops', async () => {
    client = await connect();
    const base = await call('verify');
    assert.equal(base.structuredContent.verdict, 'baseline');
    assert.equal(base.structuredContent.decision, 'continue');
    assert.deepEqual(base.structuredContent.failing.map((f: any) => f.id), ['calc > adds', 'calc > multiplies']);

    edit(FIXED_ADD);
    const progress = await call('verify');
    assert.deepEqual([progress.structuredContent.verdict, progress.structuredContent.decision, progress.structuredContent.check], ['progress', 'continue', 1]);
    assert.match(progress.content[0]!.text, /^CONTINUE: check 1 of 8/);

    edit(BROKEN_NEG);
    const regression = await call('verify');
    assert.equal(regression.structuredContent.verdict, 'regression');
    assert.deepEqual(regression.structuredContent.rolledBack.files, ['src/calc.js']);
    assert.match(fs.readFileSync(calc(), 'utf8'), /return -a;/);

    edit((s) => `${s}// a comment\n`);
    assert.equal((await call('verify')).structuredContent.decision, 'stop', 'regression then no progress: patience 2 is spent');
    const status = await call('status');
    assert.equal(status.structuredContent.answer.reason, 'stagnation');
    assert.equal(status.structuredContent.answer.failingBest, 1);
  });

  it('stops when a change returns the workspace to a state it was in (a cycle)', async () => {
    client = await connect({ extra: ['--patience', '5'] });
    await call('verify');
    edit((s) => `// try A\n${s}`);
    assert.equal((await call('verify')).structuredContent.decision, 'continue');
    edit((s) => s.replace('// try A\n', ''));
    const cycle = await call('verify');
    assert.deepEqual([cycle.structuredContent.decision, cycle.structuredContent.reason], ['stop', 'cycle']);
  });

  it('says green and stop when every test passes, and rolls back to the baseline on request', async () => {
    client = await connect();
    await call('verify');
    edit((s) => FIXED_MUL(FIXED_ADD(s)));
    const green = await call('verify');
    assert.deepEqual([green.structuredContent.green, green.structuredContent.decision, green.structuredContent.reason], [true, 'stop', 'green']);
    const back = await call('rollback', { to: 'baseline' });
    assert.deepEqual(back.structuredContent.restored, ['src/calc.js']);
    assert.match(fs.readFileSync(calc(), 'utf8'), /return a - b;/);
  });

  it('runs fix_until_green with the client\'s own model through sampling', async () => {
    const prompts: string[] = [];
    const answers = [FIX_ADD, FIX_MUL];
    client = await connect({ sampling: async (prompt) => (prompts.push(prompt), answers.shift() ?? 'no idea') });
    const progress: string[] = [];
    const res = await client.callTool({ name: 'fix_until_green', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.message ?? '') }) as any;
    assert.equal(res.isError, undefined, res.content?.[0]?.text);
    assert.deepEqual([res.structuredContent.outcome, res.structuredContent.attempts, res.structuredContent.modelCalls], ['green', 2, 2]);
    assert.equal(res.structuredContent.model, 'sampling:test-agent');
    assert.match(prompts[0]!, /calc > adds/);
    assert.ok(progress.some((m) => /attempt 2: green/.test(m)), `progress notifications: ${JSON.stringify(progress)}`);
  });

  it('stops fix_until_green when the client cancels, leaving the workspace as it was', async () => {
    const before = fs.readFileSync(calc(), 'utf8');
    let asked!: () => void;
    const wasAsked = new Promise<void>((r) => (asked = r));
    client = await connect({ sampling: () => { asked(); return new Promise<string>(() => undefined); } });
    const controller = new AbortController();
    const pending = client.callTool({ name: 'fix_until_green', arguments: {} }, undefined, { signal: controller.signal }).catch((err: Error) => err);
    await wasAsked;
    controller.abort();
    assert.ok((await pending) instanceof Error, 'the call ends as cancelled');
    // The server is still there and the workspace untouched.
    const status = await call('status');
    assert.equal(status.isError, undefined);
    assert.equal(fs.readFileSync(calc(), 'utf8'), before);
  });

  // Issue 22 item 7: a run whose tests never gave a count answered "Failing: 0 → 0", which reads as nothing to fix.
  it('says a fix_until_green whose tests gave no usable result has no test count, never "Failing: 0 → 0"', async () => {
    client = await connect({ sampling: async () => FIX_ADD, extra: ['--test-cmd', 'greenloop-no-such-command-here'] });
    const res = await client.callTool({ name: 'fix_until_green', arguments: {} }) as any;
    const text = res.content[0].text as string;
    assert.match(text, /No test count: the tests gave no usable result\./);
    assert.doesNotMatch(text, /Failing: 0 → 0/);
    assert.equal(res.structuredContent.attempts, 0);
  });

  it('answers bad input with a tool error in one sentence', async () => {
    client = await connect({ cwd: path.join(project, 'no-such-folder') });
    const missing = await call('verify');
    assert.equal(missing.isError, true);
    assert.match(missing.content[0]!.text, /no-such-folder/);
    await client.close();

    const empty = tempDir('empty');
    fs.writeFileSync(path.join(empty, 'package.json'), '{"name":"x"}');
    client = await connect({ cwd: empty });
    const noTests = await call('verify');
    assert.equal(noTests.isError, true);
    assert.match(noTests.content[0]!.text, /test/i);
    await client.close();

    client = await connect();
    const early = await call('rollback', { to: 'best' });
    assert.equal(early.isError, true);
    assert.match(early.content[0]!.text, /no check yet: call verify first/);
    const noModel = await call('fix_until_green');
    assert.equal(noModel.isError, true);
    assert.match(noModel.content[0]!.text, /needs a model: this client offers no sampling/);
  });
});

// The model check before the first test run obeys the run's deadline and its own bound, whatever the server does:
// one that accepts the connection and never answers, one that sends its headers and then nothing, one whose TCP
// connect never completes. The run always ends with its report and exit 1 — through the real CLI, on loopback.
// Verdicts are reasons and exit codes; the only clock is a generous upper bound on the whole run.
import * as assert from 'assert';
import { spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { startCli, tempDir, tempProject, treeBytes } from '../support/cli';
import { alive } from '../support/processes';

interface Run { code: number | null; stdout: string; stderr: string; report: any; ms: number }

/** Far above a 6 s budget plus a CLI start on a busy machine; only a run that waits for something else reaches it. */
const WELL_BEFORE_MS = 60_000;

describe('greenloop fix: the model check obeys the deadline and its own bound (real CLI, loopback servers)', function () {
  this.timeout(150_000);
  let project: string;
  let stateDir: string;
  let marker: string;
  const closers: Array<() => void> = [];

  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('check-state');
    marker = path.join(stateDir, 'tests-ran');
  });
  afterEach(() => {
    closers.splice(0).forEach((close) => close());
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function fix(baseUrl: string, extra: string[]): Promise<Run> {
    const t0 = Date.now();
    const { done } = startCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', baseUrl, '--model', 'scripted', '--no-stream', '--tsc', 'off',
      '--state-dir', stateDir, '--json', '--test-cmd', `touch ${JSON.stringify(marker)} && node --test test/`, ...extra], { timeoutMs: 120_000 });
    const res = await done;
    let report: any = null;
    try {
      report = JSON.parse(res.stdout);
    } catch {
      // asserted below: the report must be there
    }
    return { ...res, report, ms: Date.now() - t0 };
  }

  function listen(server: net.Server): Promise<string> {
    closers.push(() => server.close());
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)));
  }

  /** Accepts every connection and never sends a byte. */
  function silentServer(): Promise<string> {
    const sockets: net.Socket[] = [];
    const server = net.createServer((s) => {
      s.on('error', () => undefined);
      sockets.push(s);
    });
    closers.push(() => sockets.forEach((s) => s.destroy()));
    return listen(server);
  }

  /** Sends the status line and headers, one byte of body, then nothing more; records what was asked. */
  function stallingServer(status: number, seen: string[]): Promise<string> {
    const responses: http.ServerResponse[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.write('{');
      responses.push(res);
    });
    closers.push(() => responses.forEach((r) => r.destroy()));
    return listen(server);
  }

  function assertEndedBeforeTests(res: Run, reason: string): void {
    assert.ok(res.report, `no JSON report on stdout (exit ${res.code}): ${res.stderr}`);
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(res.report.outcome, 'escalated');
    assert.strictEqual(res.report.reason, reason, res.report.reasonText);
    assert.strictEqual(res.report.llmCalls, 0);
    assert.ok(!fs.existsSync(marker), 'the tests never ran');
    assert.ok(res.ms < WELL_BEFORE_MS, `the run took ${res.ms} ms`);
  }

  it('a server that accepts and never answers: the time budget ends the check — budget-time, with the report, exit 1', async () => {
    const before = treeBytes(project);
    // The check's own bound is 10 s here; the 6 s budget is the shorter of the two.
    const res = await fix(await silentServer(), ['--max-minutes', '0.1']);
    assertEndedBeforeTests(res, 'budget-time');
    assert.strictEqual(res.report.reasonText, 'The time budget (0.1 min) ran out while the model was checked, before the first test run; nothing was changed.');
    assert.match(res.stderr, /stopped while the model was checked; the tests were not run/);
    assert.doesNotMatch(res.stderr, /Internal error|The time budget ran out\.$/m);
    assert.deepStrictEqual(treeBytes(project), before);
  });

  it('a server that accepts and never answers, with time to spare: the check\'s own bound ends it — actor-error naming that bound', async () => {
    const url = await silentServer();
    const res = await fix(url, ['--max-minutes', '5', '--request-timeout-s', '2']);
    assertEndedBeforeTests(res, 'actor-error');
    assert.strictEqual(res.report.reasonText, `The model server at ${url} did not answer within 2 s; check the base URL and that the server is running.`);
  });

  it('a server that sends a refusal\'s headers and then stalls its body: budget-time at the check, with the report, exit 1', async () => {
    const seen: string[] = [];
    const res = await fix(await stallingServer(401, seen), ['--max-minutes', '0.1']);
    assertEndedBeforeTests(res, 'budget-time');
    assert.deepStrictEqual(seen, ['GET /v1/models']);
  });

  it('a server that sends 200 headers and then stalls: the check lets the run go on, the stalled request ends at the deadline', async () => {
    const seen: string[] = [];
    const res = await fix(await stallingServer(200, seen), ['--max-minutes', '0.1']);
    assert.ok(res.report, `no JSON report on stdout (exit ${res.code}): ${res.stderr}`);
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(res.report.reason, 'budget-time', res.report.reasonText);
    assert.strictEqual(seen[0], 'GET /v1/models');
    assert.ok(res.ms < WELL_BEFORE_MS, `the run took ${res.ms} ms`);
  });

  it('a TCP connect that never completes (a listener with a full backlog): budget-time at the check, with the report, exit 1', async () => {
    const url = await unacceptingListener(closers);
    const res = await fix(url, ['--max-minutes', '0.1']);
    assertEndedBeforeTests(res, 'budget-time');
  });
});

/**
 * A port whose connects hang: a listener in a stopped process (it accepts nothing) whose backlog is already full,
 * so the kernel drops every further SYN — what a firewalled host or a hung machine looks like to a client.
 */
async function unacceptingListener(closers: Array<() => void>): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, ['-e', "const s = require('net').createServer(() => {}); s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => console.log(s.address().port));"], { stdio: ['ignore', 'pipe', 'inherit'] });
  closers.push(() => {
    if (alive(child.pid!)) process.kill(child.pid!, 'SIGKILL');
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', () => reject(new Error('the listener exited')));
  });
  process.kill(child.pid!, 'SIGSTOP');
  // The accept queue holds backlog + 1 connections; a few more make sure it is full whatever the kernel rounds to.
  const fillers = Array.from({ length: 6 }, () => net.connect(port, '127.0.0.1').on('error', () => undefined));
  closers.push(() => fillers.forEach((s) => s.destroy()));
  await Promise.race([Promise.all(fillers.slice(0, 2).map((s) => new Promise((r) => s.once('connect', r)))), new Promise((r) => setTimeout(r, 5000))]);
  const probe = net.connect(port, '127.0.0.1').on('error', () => undefined);
  closers.push(() => probe.destroy());
  // Not a timing verdict: a probe that does connect means this kernel queues more than expected, and the test says so.
  await new Promise((r) => setTimeout(r, 500));
  assert.ok(probe.connecting, 'the probe connected: the backlog was not full, so this listener does not make connects hang');
  return `http://127.0.0.1:${port}/v1`;
}

// `greenloop fix` as a user runs it: the bundled CLI, a fresh git copy of a fixture project, its own state dir, and a
// scripted Chat Completions server on loopback. Shared by the CLI test files.
import * as fs from 'fs';
import * as path from 'path';
import { startCli, tempDir, tempProject } from './cli';
import type { ChildProcess } from 'child_process';
import type { CliResult } from './cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer, ScriptStep } from '../../support/fakeOpenAIServer';

export interface FixResult extends CliResult {
  /** The parsed --json report, or null when stdout was not JSON. */
  report: any;
}

export interface FixOptions { env?: NodeJS.ProcessEnv; timeoutMs?: number; stream?: boolean }

export interface FixHarness {
  server: FakeOpenAIServer;
  project: string;
  stateDir: string;
  /** Runs `greenloop fix --actor openai` against the scripted server with these answers queued. */
  fix(script: ScriptStep[], extra?: string[], opts?: FixOptions): Promise<FixResult>;
  /** The same run as a process the test can signal (Ctrl-C) while it works. */
  startFix(script: ScriptStep[], extra?: string[], opts?: FixOptions): { child: ChildProcess; done: Promise<FixResult> };
  /** The i-th request's messages joined: what the model read. */
  prompt(i: number): string;
  read(rel: string): string;
  write(rel: string, text: string): void;
  close(): Promise<void>;
}

export async function fixHarness(fixture = 'calc'): Promise<FixHarness> {
  const server = await startFakeOpenAIServer([]);
  const project = tempProject(fixture);
  const stateDir = tempDir('state');
  const startFix: FixHarness['startFix'] = (script, extra = [], opts = {}) => {
    server.push(...script);
    const stream = opts.stream ? [] : ['--no-stream'];
    const testCmd = extra.includes('--test-cmd') ? [] : directTestCommand(project);
    const { child, done } = startCli(
      ['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', ...stream, '--tsc', 'off', '--state-dir', stateDir, '--json', ...testCmd, ...extra],
      { env: opts.env, timeoutMs: opts.timeoutMs },
    );
    return { child, done: done.then((res) => ({ ...res, report: parseReport(res.stdout) })) };
  };
  return {
    server,
    project,
    stateDir,
    fix: (script, extra = [], opts = {}) => startFix(script, extra, opts).done,
    startFix,
    prompt: (i) => server.requests[i].body.messages.map((m: { content: string }) => m.content).join('\n'),
    read: (rel) => fs.readFileSync(path.join(project, rel), 'utf8'),
    write: (rel, text) => {
      fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
      fs.writeFileSync(path.join(project, rel), text);
    },
    async close() {
      await server.close();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * `--test-cmd` with the fixture's `npm test` script when it is a plain `node --test`, so the CLI runs it without npm:
 * npm's own start costs a third of a CPU-second on every whole-suite run, hundreds of times in `npm test` on a 2-core
 * CI machine. Finding `npm test` and resolving its script is tested where it is the subject (the first tests of
 * fix.test.ts, fixTargeted, the package.json and .npmrc gaming tests, the e2e scenarios, the demo).
 */
export function directTestCommand(project: string): string[] {
  const pkg = path.join(project, 'package.json');
  if (!fs.existsSync(pkg)) return [];
  const script: unknown = JSON.parse(fs.readFileSync(pkg, 'utf8')).scripts?.test;
  return typeof script === 'string' && script.startsWith('node --test') ? ['--test-cmd', script] : [];
}

function parseReport(stdout: string): any {
  try {
    return JSON.parse(stdout);
  } catch {
    return null; // asserted by the caller
  }
}

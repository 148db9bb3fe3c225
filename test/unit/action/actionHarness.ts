// The action as a GitHub runner starts it: `node dist/action.js` with INPUT_* and GITHUB_* variables, real summary and
// output files, a real git checkout of a failing `node --test` project with a bare repository as its origin, and the
// scripted model server on loopback.
import { execFileSync, spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ensureCliBuilt, ROOT, tempDir, tempProject } from '../support/cli';
import { directTestCommand } from '../support/fixHarness';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer, ScriptStep } from '../../support/fakeOpenAIServer';

export const MODEL_KEY = 'sk-greenloop-PLANTED-action-key-31337';
export const GITHUB_TOKEN = 'ghs_PLANTEDgithubTOKEN0123456789';

export interface ActionResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

export interface ActionHarness {
  project: string;
  origin: string;
  /** The commit the job checked out. */
  sha: string;
  scratch: string;
  server: FakeOpenAIServer;
  summaryFile: string;
  outputFile: string;
  stateDir: string;
  git(...args: string[]): string;
  start(script: ScriptStep[], inputs?: Record<string, string>, env?: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<ActionResult> };
  run(script: ScriptStep[], inputs?: Record<string, string>, env?: NodeJS.ProcessEnv): Promise<ActionResult>;
  close(): Promise<void>;
}

/** GITHUB_OUTPUT's file command format: `name<<DELIM\nvalue\nDELIM`. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1]] = m[3];
  return out;
}

export async function actionHarness(opts: { branch?: string } = {}): Promise<ActionHarness> {
  ensureCliBuilt();
  const server = await startFakeOpenAIServer([]);
  const project = tempProject('calc');
  const scratch = tempDir('action');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8', stdio: 'pipe' });
  git('branch', '-M', opts.branch ?? 'main');
  const origin = path.join(scratch, 'origin.git');
  execFileSync('git', ['clone', '-q', '--bare', project, origin]);
  git('remote', 'add', 'origin', origin);
  const sha = git('rev-parse', 'HEAD').trim();
  const summaryFile = path.join(scratch, 'step_summary.md');
  const outputFile = path.join(scratch, 'github_output');
  const stateDir = path.join(scratch, 'state');
  fs.writeFileSync(summaryFile, '');
  fs.writeFileSync(outputFile, '');
  fs.mkdirSync(path.join(scratch, 'runner-temp'));
  const eventFile = path.join(scratch, 'event.json');
  fs.writeFileSync(eventFile, JSON.stringify({ ref: `refs/heads/${opts.branch ?? 'main'}`, after: sha }));

  const start: ActionHarness['start'] = (script, inputs = {}, env = {}) => {
    server.push(...script);
    const allInputs: Record<string, string> = {
      'base-url': server.url, model: 'scripted', 'api-key-env': 'PLANTED_MODEL_KEY', tsc: 'off', 'state-dir': stateDir, 'timeout-minutes': '60',
      // The calc fixture's script as a workflow names it, run without npm's own start (see directTestCommand).
      'test-command': directTestCommand(project)[1] ?? '', ...inputs,
    };
    const { npm_config_loglevel: _silenced, GITHUB_ACTIONS: _a, ...inherited } = process.env;
    const childEnv: NodeJS.ProcessEnv = {
      ...inherited,
      GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_WORKSPACE: project, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile,
      RUNNER_TEMP: path.join(scratch, 'runner-temp'), GITHUB_REPOSITORY: 'acme/calc', GITHUB_SHA: sha, GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '1',
      GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: eventFile, GITHUB_REF: `refs/heads/${opts.branch ?? 'main'}`, GITHUB_REF_NAME: opts.branch ?? 'main',
      GITHUB_SERVER_URL: 'https://github.example', PLANTED_MODEL_KEY: MODEL_KEY,
      // As action.yml passes them: `GREENLOOP_INPUTS: ${{ toJSON(inputs) }}`.
      GREENLOOP_INPUTS: JSON.stringify(allInputs),
      ...env,
    };
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'action.js')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const done = new Promise<ActionResult>((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d) => (stdout += d));
      child.stderr!.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, outputs: parseOutputs(fs.readFileSync(outputFile, 'utf8')), summary: fs.readFileSync(summaryFile, 'utf8') });
      });
    });
    return { child, done };
  };

  return {
    project, origin, sha, scratch, server, summaryFile, outputFile, stateDir, git, start,
    run: (script, inputs, env) => start(script, inputs, env).done,
    async close() {
      await server.close();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Every file under dir as raw bytes, keyed by its path. */
export function filesUnder(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    out[p] = fs.readFileSync(p);
  }
  return out;
}

// The real qwen agent CLI, as tests and benchmarks run it: installed once by scripts/agents/install-qwen.sh, started
// headless (--yolo, prompt on stdin) in a throwaway git copy of a fixture, against a model URL, with a throwaway
// HOME so nothing of the developer's own qwen setup (keys, settings, memories) leaks in or is written to.
import { execFile, execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const INSTALL_SCRIPT = path.join(ROOT, 'scripts/agents/install-qwen.sh');

export const QWEN_FIX_PROMPT = 'Fix the failing tests in this project. Run `npm test` to check.';

/** Installs qwen if needed (seconds the first time, instant after) and resolves to its bin; rejects with why not. */
export function installQwen(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [INSTALL_SCRIPT], { timeout: 300_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const bin = stdout.trim().split('\n').pop() ?? '';
      if (!err && bin && fs.existsSync(bin)) return resolve(bin);
      // The script's own last message says why; the npm log lines after it are detail.
      const said = stderr.split('\n').filter((l) => l.startsWith('[agents]')).pop()?.replace('[agents] ', '');
      const why = said ?? (err ? err.message : 'the install script printed no bin path');
      reject(new Error(`qwen could not be installed: ${why}`));
    });
  });
}

export interface AgentWorkspace {
  /** The project the agent works in: a git repo with one commit of the fixture. */
  workspace: string;
  /** The agent's HOME, in a folder of its own (not beside the workspace, so the agent never lists it as project files). */
  home: string;
  remove(): void;
}

/** Copies `fixtureDir` to a temp git repo (one commit) and makes a fresh HOME for qwen elsewhere. */
export function makeAgentWorkspace(fixtureDir: string): AgentWorkspace {
  const ws = makeFixtureWorkspace(fixtureDir);
  writeQwenSettings(ws.home);
  return ws;
}

/** Copies `fixtureDir` to a temp git repo (one commit) and makes an empty HOME for any agent elsewhere. */
export function makeFixtureWorkspace(fixtureDir: string): AgentWorkspace {
  const wsParent = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-agent-ws-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-agent-home-'));
  const workspace = path.join(wsParent, path.basename(fixtureDir));
  fs.cpSync(fixtureDir, workspace, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=greenloop', '-c', 'user.email=greenloop@example.invalid', 'commit', '-q', '-m', 'fixture');
  return {
    workspace,
    home,
    remove() {
      fs.rmSync(wsParent, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** No update check or usage report on each start: runs stay offline apart from the model URL. */
function writeQwenSettings(home: string): void {
  fs.mkdirSync(path.join(home, '.qwen'), { recursive: true });
  const settings = { general: { enableAutoUpdate: false }, privacy: { usageStatisticsEnabled: false } };
  fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify(settings, null, 2));
}

export interface QwenRunOptions {
  bin: string;
  workspace: string;
  home: string;
  /** Base URL including /v1. */
  modelUrl: string;
  prompt?: string;
  /** More qwen flags, e.g. ['--bare'] or ['--max-session-turns', '5']. */
  args?: string[];
}

/** Starts qwen headless in its own process group (so killTree ends it and every command it started). */
export function spawnQwen(opts: QwenRunOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = {};
  // An outer `npm test` leaves npm_* variables that would change how the agent's own `npm test` behaves.
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|OPENAI_|DASHSCOPE_|QWEN_)/i.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: opts.home,
    OPENAI_BASE_URL: opts.modelUrl,
    OPENAI_API_KEY: 'test',
    OPENAI_MODEL: 'scripted',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    // A fresh HOME has no record of npm's own update check, so each `npm test` the agent runs would ask the registry.
    npm_config_update_notifier: 'false',
  });
  const child = spawn(opts.bin, ['--yolo', ...(opts.args ?? [])], { cwd: opts.workspace, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(opts.prompt ?? QWEN_FIX_PROMPT);
  return child;
}

/** Failing tests of a node --test project (what `npm test` would report), or -1 when the count cannot be read. */
export function countFailingTests(workspace: string): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--test'], { cwd: workspace, timeout: 60_000, maxBuffer: 8 << 20 }, (_err, stdout) => {
      const m = /^# fail (\d+)$/m.exec(stdout);
      resolve(m ? Number(m[1]) : -1);
    });
  });
}

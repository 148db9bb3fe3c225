// The real Claude Code CLI, as tests and benchmarks run it: installed once by scripts/agents/install-claude.sh,
// started headless (-p, prompt on stdin) in a throwaway git copy of a fixture, against a model URL speaking the
// Anthropic Messages API, with a throwaway HOME so nothing of the developer's own Claude setup (login, settings,
// memories, sessions) leaks in or is written to.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const INSTALL_SCRIPT = path.join(ROOT, 'scripts/agents/install-claude.sh');

export const CLAUDE_FIX_PROMPT = 'Fix the failing tests in this project. Run `npm test` to check.';

/**
 * Edits without asking, as Greenloop's claude preset runs it, and shell commands too: in print mode acceptEdits
 * alone answers every Bash call "This command requires approval", so the agent could never run the tests
 * (and bypassPermissions refuses to start as root).
 */
export const CLAUDE_DEFAULT_ARGS = ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'];

/** Installs claude if needed (seconds the first time, instant after) and resolves to its bin; rejects with why not. */
export function installClaude(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [INSTALL_SCRIPT], { timeout: 300_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const bin = stdout.trim().split('\n').pop() ?? '';
      if (!err && bin && fs.existsSync(bin)) return resolve(bin);
      // The script's own last message says why; the npm log lines after it are detail.
      const said = stderr.split('\n').filter((l) => l.startsWith('[agents]')).pop()?.replace('[agents] ', '');
      const why = said ?? (err ? err.message : 'the install script printed no bin path');
      reject(new Error(`claude could not be installed: ${why}`));
    });
  });
}

export interface ClaudeRunOptions {
  bin: string;
  workspace: string;
  home: string;
  /** Base URL without /v1 (ANTHROPIC_BASE_URL). */
  modelUrl: string;
  prompt?: string;
  /** Claude flags after -p; default CLAUDE_DEFAULT_ARGS. E.g. [...CLAUDE_DEFAULT_ARGS, '--max-turns', '5']. */
  args?: string[];
}

/** The environment claude runs in: the outer one without any Anthropic/Claude setting, pointed at `modelUrl`. */
export function claudeEnv(home: string, modelUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // An outer `npm test` leaves npm_* variables that would change how the agent's own `npm test` behaves; a
  // developer's ANTHROPIC_*/CLAUDE_* variables would send the agent to the real API or change how it runs.
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|ANTHROPIC_|CLAUDE_|CLAUDECODE)/i.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: home,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    // No usage report, update check, error report or other call home: runs stay offline apart from the model URL.
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // A fresh HOME has no record of npm's own update check, so each `npm test` the agent runs would ask the registry.
    npm_config_update_notifier: 'false',
  });
  return env;
}

/** Starts claude headless in its own process group (so killTree ends it and every command it started). */
export function spawnClaude(opts: ClaudeRunOptions): ChildProcess {
  const args = ['-p', ...(opts.args ?? CLAUDE_DEFAULT_ARGS)];
  const child = spawn(opts.bin, args, { cwd: opts.workspace, env: claudeEnv(opts.home, opts.modelUrl), detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(opts.prompt ?? CLAUDE_FIX_PROMPT);
  return child;
}

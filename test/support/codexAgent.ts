// The real OpenAI Codex CLI, as tests and benchmarks run it: installed once by scripts/agents/install-codex.sh,
// started headless (`codex exec`, prompt on stdin) in a throwaway git copy of a fixture, against a model URL
// speaking the Responses API (the only wire protocol Codex 0.169 has), with a throwaway HOME and CODEX_HOME so
// nothing of the developer's own Codex setup (login, config, sessions, memories) leaks in or is written to.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const INSTALL_SCRIPT = path.join(ROOT, 'scripts/agents/install-codex.sh');

export const CODEX_FIX_PROMPT = 'Fix the failing tests in this project. Run `npm test` to check.';

/**
 * No sandbox: Codex's own (bubblewrap/landlock) sandbox is not available in every container, and the run is already
 * confined to a throwaway copy. `exec` never asks for approval. The workspace is a git repo, but
 * --skip-git-repo-check keeps a fixture without one runnable; --ephemeral writes no session file.
 */
export const CODEX_DEFAULT_ARGS = ['--sandbox', 'danger-full-access', '--skip-git-repo-check', '--ephemeral'];

/** The model name Codex is given; unknown to it, so it uses fallback metadata (and warns so on stderr). */
export const CODEX_MODEL = 'scripted';

/** Installs codex if needed (seconds the first time, instant after) and resolves to its bin; rejects with why not. */
export function installCodex(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [INSTALL_SCRIPT], { timeout: 300_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const bin = stdout.trim().split('\n').pop() ?? '';
      if (!err && bin && fs.existsSync(bin)) return resolve(bin);
      // The script's own last message says why; the npm log lines after it are detail.
      const said = stderr.split('\n').filter((l) => l.startsWith('[agents]')).pop()?.replace('[agents] ', '');
      const why = said ?? (err ? err.message : 'the install script printed no bin path');
      reject(new Error(`codex could not be installed: ${why}`));
    });
  });
}

/**
 * A fresh HOME for codex, outside the system temp folder: Codex puts helper links (apply_patch among them) under
 * CODEX_HOME/tmp and refuses to use them when CODEX_HOME is under /tmp. CODEX_HOME is HOME/.codex.
 */
export function makeCodexHome(): { home: string; remove(): void } {
  const parent = path.join(process.env.GREENLOOP_AGENTS_CACHE ?? path.join(os.homedir(), '.cache/greenloop-agents'), 'codex-homes');
  fs.mkdirSync(parent, { recursive: true });
  const home = fs.mkdtempSync(path.join(parent, 'home-'));
  fs.mkdirSync(path.join(home, '.codex'));
  return { home, remove: () => fs.rmSync(home, { recursive: true, force: true }) };
}

export interface CodexRunOptions {
  bin: string;
  workspace: string;
  /** From makeCodexHome (CODEX_HOME is HOME/.codex). */
  home: string;
  /** Base URL including /v1. */
  modelUrl: string;
  prompt?: string;
  /** Flags after `exec`, before the provider settings; default CODEX_DEFAULT_ARGS. */
  args?: string[];
}

/** `-c` settings that point codex at `modelUrl` as a provider of its own (Responses API, key from OPENAI_API_KEY). */
export function codexProviderArgs(modelUrl: string): string[] {
  const provider = `{name="greenloop",base_url=${JSON.stringify(modelUrl)},env_key="OPENAI_API_KEY",wire_api="responses"}`;
  return ['-m', CODEX_MODEL, '-c', 'model_provider=greenloop', '-c', `model_providers.greenloop=${provider}`];
}

/** The environment codex runs in: the outer one without any OpenAI/Codex setting. */
export function codexEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // An outer `npm test` leaves npm_* variables that would change how the agent's own `npm test` behaves; a
  // developer's OPENAI_*/CODEX_* variables would send the agent to the real API or change how it runs.
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|OPENAI_|CODEX_)/i.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: home,
    CODEX_HOME: path.join(home, '.codex'),
    OPENAI_API_KEY: 'sk-test',
    // A fresh HOME has no record of npm's own update check, so each `npm test` the agent runs would ask the registry.
    npm_config_update_notifier: 'false',
  });
  return env;
}

/** Starts `codex exec` headless in its own process group (so killTree ends it and every command it started). */
export function spawnCodex(opts: CodexRunOptions): ChildProcess {
  const args = ['exec', ...(opts.args ?? CODEX_DEFAULT_ARGS), ...codexProviderArgs(opts.modelUrl), '-'];
  const child = spawn(opts.bin, args, { cwd: opts.workspace, env: codexEnv(opts.home), detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(opts.prompt ?? CODEX_FIX_PROMPT);
  return child;
}

import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ceiling, seconds } from './patience';
import { assertSetupDone, codeServerEntry, node24 } from './paths';
import { descendantsOf, removeOnExit, spawnGroup } from './processGroup';

const execFileP = promisify(execFile);

/**
 * Settings that keep a fresh profile from covering the workbench with things a person would close first:
 * the welcome page and walkthroughs, the chat side bar, update and recommendation toasts. None of them may
 * reach the network, which is closed here.
 */
export const quietSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'window.commandCenter': false,
};

export interface StartOptions {
  /** Folder the window opens; openWorkspace() navigates there. */
  workspace: string;
  /** A packaged extension installed into this server's own extensions folder before it starts. */
  vsix?: string;
  /** More packaged extensions installed beside it (test-only helpers such as an extension that calls Greenloop's tools). */
  extraVsix?: string[];
  /** User settings, merged over quietSettings. */
  settings?: Record<string, unknown>;
  /**
   * `disabled` (default) passes --disable-workspace-trust, so every folder is trusted.
   * `untrusted` turns trust on and never prompts, so the folder opens in Restricted Mode.
   */
  trust?: 'disabled' | 'untrusted';
  /** Extra environment for the server and everything it starts (extension host, test commands). */
  env?: Record<string, string>;
}

export interface CodeServer {
  url: string;
  workspace: string;
  userDataDir: string;
  extensionsDir: string;
  /** code-server's own stdout+stderr; extension host logs live under `<userDataDir>/logs`. */
  logFile: string;
  pid: number;
  /** The server and everything it runs now: its worker, extension hosts, the test commands they spawned. */
  processTree(): number[];
  /** Stops the server and everything it started, then deletes its temp folder (keeps it with keepFiles). */
  stop(opts?: { keepFiles?: boolean }): Promise<void>;
}

export async function startCodeServer(options: StartOptions): Promise<CodeServer> {
  assertSetupDone();
  const root = mkdtempSync(join(tmpdir(), 'greenloop-cs-'));
  const forgetRoot = removeOnExit(root);
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const home = join(root, 'home');
  for (const dir of [join(userDataDir, 'User'), join(userDataDir, 'Machine'), extensionsDir, home]) mkdirSync(dir, { recursive: true });

  const trust = options.trust ?? 'disabled';
  const settings: Record<string, unknown> = {
    ...quietSettings,
    ...(trust === 'untrusted'
      ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
      : {}),
    ...options.settings,
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  // And as the server machine's settings: the extension host runs on the server, and there a setting of machine scope
  // is read only from these (workbench.welcomePage.walkthroughs.openOnInstall, which Greenloop reads before it opens
  // its walkthrough by itself, at a moment no spec chose: it took the editor a spec was opening).
  writeFileSync(join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(settings, null, 2));
  const configFile = join(root, 'config.yaml');
  writeFileSync(configFile, ''); // without --config code-server writes ~/.config/code-server/config.yaml

  // XDG dirs keep code-server's heartbeat and logs out of the real home.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    ...options.env,
  };
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  try {
    for (const vsix of [options.vsix, ...(options.extraVsix ?? [])]) {
      if (!vsix) continue;
      const { stdout, stderr } = await execFileP(node24, [codeServerEntry, ...common, '--install-extension', vsix], {
        env,
        timeout: ceiling(120_000),
      });
      if (!/successfully installed/i.test(stdout + stderr)) {
        throw new Error(`code-server did not install ${vsix}: ${(stdout + stderr).trim()}`);
      }
    }
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    forgetRoot();
    throw err;
  }

  const logFile = join(root, 'code-server.log');
  const args = [
    codeServerEntry,
    ...common,
    '--auth', 'none',
    '--bind-addr', '127.0.0.1:0', // the kernel picks a free port; we read it back from the log
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(trust === 'disabled' ? ['--disable-workspace-trust'] : []),
    options.workspace,
  ];
  const proc = spawnGroup(node24, args, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  let stopped = false;
  const append = (chunk: Buffer): void => {
    log += chunk.toString();
    // The pipe can still hold output once the server stopped and its folder (with this log) is gone.
    if (!stopped) appendFileSync(logFile, chunk);
  };
  proc.child.stdout!.on('data', append);
  proc.child.stderr!.on('data', append);

  const stop = async (opts: { keepFiles?: boolean } = {}): Promise<void> => {
    await proc.stop();
    stopped = true;
    forgetRoot();
    if (!opts.keepFiles) rmSync(root, { recursive: true, force: true });
  };

  try {
    const port = await waitForPort(() => log, proc.exited, ceiling(60_000));
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/healthz`, ceiling(30_000));
    return {
      url,
      workspace: options.workspace,
      userDataDir,
      extensionsDir,
      logFile,
      pid: proc.pid,
      processTree: () => [proc.pid, ...descendantsOf(proc.pid)],
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForPort(log: () => string, exited: Promise<number | string>, timeoutMs: number): Promise<number> {
  let exitCode: number | string | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log());
    if (match) return Number(match[1]);
    if (exitCode !== undefined) {
      throw new Error(`code-server exited (${exitCode}) before listening; its output:\n${log().slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not listen within ${seconds(timeoutMs)}; its output:\n${log().slice(-2000)}`);
}

function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      const req = get(url, (res) => {
        res.resume();
        if (res.statusCode === 200) resolve();
        else retry(`status ${res.statusCode}`);
      });
      req.on('error', (err) => retry(err.message));
      // One try's patience; the next try follows until the deadline.
      req.setTimeout(ceiling(2000), () => req.destroy(new Error('no answer')));
    };
    const retry = (why: string): void => {
      if (Date.now() > deadline) reject(new Error(`code-server at ${url} did not answer (${why}).`));
      else setTimeout(attempt, 200);
    };
    attempt();
  });
}

/** What the extension host logged (activation errors, console output of extensions), for failure reports. */
export function extensionHostLog(server: CodeServer): string {
  return logsNamed(server, /exthost\.log$/, 8000);
}

/** Greenloop's own output ("Greenloop" in the Output view: what each run did and why it stopped), for failure reports. */
export function greenloopLog(server: CodeServer): string {
  return logsNamed(server, /Greenloop\.log$/, 6000);
}

/** The tail of every log file under the server's logs folder whose name matches, one extension host after another. */
function logsNamed(server: CodeServer, name: RegExp, tail: number): string {
  const logsRoot = join(server.userDataDir, 'logs');
  if (!existsSync(logsRoot)) return '';
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (name.test(entry.name)) out.push(`--- ${path}\n${readFileSync(path, 'utf8').slice(-tail)}`);
    }
  };
  walk(logsRoot);
  return out.join('\n');
}

export function readLog(server: CodeServer): string {
  try {
    return readFileSync(server.logFile, 'utf8');
  } catch {
    return '';
  }
}

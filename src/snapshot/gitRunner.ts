// Runs git against the private shadow repository only. The user's environment may point git at their own
// repository (GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS...), so every GIT_* variable is dropped and the
// few we need are set explicitly; their global/system config, hooks and filters never apply to us.
import { spawn } from 'node:child_process';

export class GitError extends Error {
  constructor(
    message: string,
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface GitRunnerOptions {
  gitDir: string;
  workTree: string;
  indexFile: string;
  /** A config file of ours standing in for the user's ~/.gitconfig. */
  globalConfig: string;
}

export interface RunOptions {
  input?: string | Buffer;
  /** Exit codes that are answers rather than failures (e.g. 1 for "not found"). */
  okCodes?: number[];
  /** check-ignore rejects literal pathspecs, so it runs with pattern pathspecs. */
  patternPathspecs?: boolean;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

// Command-line config has the highest precedence, so these hold even if the shadow config were edited.
const FIXED_CONFIG: string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.symlinks=true',
  'core.fileMode=true',
  'core.attributesFile=/dev/null',
  'core.untrackedCache=true',
  'core.preloadIndex=true',
  'core.splitIndex=false',
  'core.sparseCheckout=false',
  'core.logAllRefUpdates=false',
  'core.quotePath=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'advice.addEmbeddedRepo=false',
  'submodule.recurse=false',
  'user.name=Greenloop',
  'user.email=greenloop@localhost',
];

export function scrubbedEnv(opts: GitRunnerOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') || k === 'LANG' || k.startsWith('LC_')) continue;
    env[k] = v;
  }
  Object.assign(env, {
    LC_ALL: 'C',
    GIT_INDEX_FILE: opts.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: opts.globalConfig,
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_AUTHOR_NAME: 'Greenloop',
    GIT_AUTHOR_EMAIL: 'greenloop@localhost',
    GIT_COMMITTER_NAME: 'Greenloop',
    GIT_COMMITTER_EMAIL: 'greenloop@localhost',
  });
  return env;
}

export class GitRunner {
  private readonly env: NodeJS.ProcessEnv;
  private readonly prefix: string[];

  constructor(readonly opts: GitRunnerOptions) {
    this.env = scrubbedEnv(opts);
    this.prefix = [`--git-dir=${opts.gitDir}`, `--work-tree=${opts.workTree}`];
    for (const c of FIXED_CONFIG) this.prefix.push('-c', c);
  }

  /** Runs `git <args>` in the workspace; rejects with GitError on an exit code not in okCodes. */
  run(args: string[], ro: RunOptions = {}): Promise<RunResult> {
    return this.spawnGit([...this.prefix, ...args], args, ro, this.opts.workTree);
  }

  private spawnGit(full: string[], args: string[], ro: RunOptions, cwd: string | undefined): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const env = ro.patternPathspecs ? { ...this.env, GIT_LITERAL_PATHSPECS: '0' } : this.env;
      const child = spawn('git', full, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e: NodeJS.ErrnoException) => {
        const msg = e.code === 'ENOENT'
          ? 'git was not found on PATH; install git (2.32 or newer) to use snapshots.'
          : `git could not be started: ${e.message}`;
        reject(new GitError(msg, args, null, ''));
      });
      child.on('close', (code) => {
        const stderr = Buffer.concat(err).toString('utf8');
        const c = code ?? -1;
        if (c === 0 || ro.okCodes?.includes(c)) {
          resolve({ stdout: Buffer.concat(out), stderr, code: c });
        } else {
          const first = stderr.trim().split('\n').slice(-3).join(' | ') || `exit code ${c}`;
          reject(new GitError(`git ${args[0]} failed in the snapshot store: ${first}`, args, c, stderr));
        }
      });
      child.stdin.on('error', () => { /* git may exit before reading all input; its exit code tells */ });
      child.stdin.end(ro.input ?? '');
    });
  }

  /** Creates the bare shadow repository itself (no template: no sample hooks, nothing to run). */
  init(): Promise<RunResult> {
    return this.spawnGit(['init', '--bare', '--quiet', '--template=', this.opts.gitDir], ['init'], {}, undefined);
  }

  async text(args: string[], ro?: RunOptions): Promise<string> {
    return (await this.run(args, ro)).stdout.toString('utf8');
  }
}

/** Splits NUL-separated git output (-z) into its non-empty fields. */
export function splitZ(buf: Buffer | string): string[] {
  return buf.toString().split('\0').filter((s) => s.length > 0);
}

/** Joins paths for `--stdin -z` input. */
export function joinZ(paths: string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}

// The CLI as the npm package a release would publish: `npm pack` makes a tarball of only what runs, and
// `npm install -g` of it into a fresh prefix and HOME (an empty npm cache: nothing may need the registry) puts
// `greenloop` on PATH with no warning. Then, from folders with no repository around them, the installed command does
// what a person does with it: --version, verify, fix of a copy of examples/cart against the scripted demo model until
// green, the Claude Code Stop hook and the MCP server.
import { strict as assert } from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureCliBuilt, ROOT } from '../unit/support/cli';
import { startFakeOpenAIServer, type FakeOpenAIServer, type ScriptStep } from '../support/fakeOpenAIServer';

const WINDOWS = process.platform === 'win32';
const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm …` as a person runs it: through the shell on Windows, where npm is npm.cmd. */
function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv): Ran {
  const r = spawnSync('npm', args, { cwd, env, encoding: 'utf8', shell: WINDOWS, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Not in `npm test`: about 20 s of CPU and over a minute of wall time on a busy 2-core machine (the fix runs the cart's tests and tsc several times). `npm run test:package`
// runs it, and CI on every platform (.ci/run, .github/workflows/ci.yml).
describe('the npm package: pack, install -g into a fresh prefix and HOME, use from anywhere', function () {
  this.timeout(180_000);
  let work: string;
  let env: NodeJS.ProcessEnv;
  let server: FakeOpenAIServer | undefined;

  /** The installed `greenloop`, found on PATH like any command (a .cmd shim on Windows). */
  function greenloop(args: string[], cwd: string, input = '', extraEnv: NodeJS.ProcessEnv = {}): Promise<Ran> {
    return new Promise((resolve, reject) => {
      const child = spawn('greenloop', args, { cwd, env: { ...env, ...extraEnv }, shell: WINDOWS });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      child.stdin.end(input);
    });
  }

  const DEMO_STEPS = (JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'cart', 'demo-model.json'), 'utf8')) as { steps: ScriptStep[] }).steps;

  /** A copy of examples/cart, its own dependencies installed (its TypeScript: the type check is on). */
  function cartCopy(name: string): string {
    const cart = path.join(work, name);
    fs.cpSync(path.join(ROOT, 'examples', 'cart'), cart, { recursive: true, filter: (src) => !src.includes('node_modules') });
    const deps = npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], cart, { ...env, npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm') });
    assert.equal(deps.code, 0, deps.stderr);
    return cart;
  }

  /** A GitHub Actions job's files (summary, outputs, runner temp), fresh, with the variables that name them. */
  function actionsJob(name: string): { env: NodeJS.ProcessEnv; summary: string; output: string; temp: string } {
    const dir = fs.mkdtempSync(path.join(work, `${name}-`));
    const summary = path.join(dir, 'step_summary.md');
    const output = path.join(dir, 'github_output');
    const temp = path.join(dir, 'runner-temp');
    fs.writeFileSync(summary, '');
    fs.writeFileSync(output, '');
    fs.mkdirSync(temp);
    return { env: { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, RUNNER_TEMP: temp }, summary, output, temp };
  }

  before(function () {
    ensureCliBuilt();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-pack-'));
    const home = path.join(work, 'home');
    const prefix = path.join(work, 'prefix');
    fs.mkdirSync(home);
    fs.mkdirSync(prefix);
    // Nothing of this checkout or of `npm run`'s environment reaches the install: no npm_* variable, no
    // node_modules/.bin on PATH, an npm cache and user config of the fresh HOME's own.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^npm_|^GREENLOOP_|^INIT_CWD$/i.test(k)));
    const bin = WINDOWS ? prefix : path.join(prefix, 'bin');
    const pathList = (process.env.PATH ?? '').split(path.delimiter).filter((p) => p && !p.includes('node_modules'));
    env = {
      ...inherited,
      HOME: home, USERPROFILE: home, APPDATA: path.join(home, 'AppData', 'Roaming'), LOCALAPPDATA: path.join(home, 'AppData', 'Local'),
      XDG_STATE_HOME: '', XDG_CONFIG_HOME: '', XDG_CACHE_HOME: '',
      npm_config_prefix: prefix, npm_config_cache: path.join(home, '.npm'), npm_config_userconfig: path.join(home, '.npmrc'),
      npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false',
      PATH: [bin, path.dirname(process.execPath), ...pathList].join(path.delimiter),
    };
  });

  after(async () => {
    await server?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('packs only the bundles (the GitHub writers\' among them), tree-sitter\'s grammars, README and LICENSE; installs with no warning; fixes examples/cart to green from its own folder', async () => {
    // The bundles were just built: --ignore-scripts skips prepack's build of them (`npm pack` alone runs it).
    const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT, { ...process.env, npm_config_loglevel: 'warn' });
    assert.equal(packed.code, 0, packed.stderr);
    const [{ filename, files }] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    assert.equal(filename, `greenloop-${MANIFEST.version}.tgz`);
    const grammars = ['tree-sitter', 'tree-sitter-c-sharp', 'tree-sitter-cpp', 'tree-sitter-go', 'tree-sitter-java', 'tree-sitter-javascript', 'tree-sitter-php', 'tree-sitter-python', 'tree-sitter-ruby', 'tree-sitter-rust', 'tree-sitter-tsx', 'tree-sitter-typescript'].map((g) => `dist/tree-sitter/${g}.wasm`);
    assert.deepEqual(files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'dist/action.js', 'dist/base.js', 'dist/cli.js', 'dist/mcp.js', 'dist/runtime.js', ...grammars, 'package.json'].sort());

    const installed = npm(['install', '-g', '--offline', path.join(work, filename)], work, env);
    assert.equal(installed.code, 0, installed.stderr);
    // No EBADENGINE, no deprecation, no install script to approve: nothing to say but the count.
    assert.equal(installed.stderr.trim(), '', installed.stderr);
    assert.match(installed.stdout, /added 1 package/);

    const elsewhere = fs.mkdtempSync(path.join(work, 'anywhere-'));
    const version = await greenloop(['--version'], elsewhere);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), MANIFEST.version);

    const cart = cartCopy('cart');
    server = await startFakeOpenAIServer(DEMO_STEPS);
    const fix = await greenloop(['fix', '--actor', 'openai', '--base-url', server.url, '--model', 'scripted-demo', '--json'], cart);
    assert.equal(fix.code, 0, fix.stderr);
    const report = JSON.parse(fix.stdout) as { outcome: string; baseline: { failing: string[]; diagnostics: number }; final: { failing: string[]; diagnostics: number } };
    assert.equal(report.outcome, 'green');
    assert.ok(report.baseline.failing.length > 0 && report.baseline.diagnostics > 0, JSON.stringify(report.baseline));
    assert.deepEqual(report.final.failing, []);
    // Its state went to the fresh HOME's state folder, not into the project.
    const stateHome = WINDOWS ? path.join(env.LOCALAPPDATA!, 'greenloop') : process.platform === 'darwin' ? path.join(env.HOME!, 'Library', 'Application Support', 'greenloop') : path.join(env.HOME!, '.local', 'state', 'greenloop');
    assert.ok(fs.existsSync(stateHome), `no state folder at ${stateHome}`);
    const after = await greenloop(['verify'], cart);
    assert.equal(after.code, 0, after.stdout);
    assert.equal((JSON.parse(after.stdout) as { green: boolean }).green, true);
  });

  it('the installed hook and MCP server answer from a folder of their own (on the fixed copy)', async () => {
    const cart = path.join(work, 'cart');
    assert.ok(fs.existsSync(cart), 'the test before left no copy of examples/cart');
    const hook = await greenloop(['hook', 'claude-stop', '--tsc', 'off'], cart, JSON.stringify({ session_id: 'pack', cwd: cart, hook_event_name: 'Stop', stop_hook_active: false }));
    assert.equal(hook.code, 0, hook.stderr);
    // Green (the fix above): the agent may stop.
    assert.doesNotMatch(hook.stdout, /"decision":\s*"block"/, hook.stdout);

    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-test', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const mcp = await greenloop(['mcp', '--cwd', cart], cart, `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`);
    const answers = mcp.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id?: number; result?: { serverInfo?: { version: string }; tools?: Array<{ name: string }> } });
    assert.equal(answers.find((a) => a.id === 1)?.result?.serverInfo?.version, MANIFEST.version, mcp.stdout + mcp.stderr);
    const tools = answers.find((a) => a.id === 2)?.result?.tools?.map((t) => t.name) ?? [];
    assert.deepEqual(tools.sort(), ['fix_until_green', 'rollback', 'status', 'verify'], mcp.stdout + mcp.stderr);
  });
  it('inside a GitHub Actions job, fix speaks the job\'s language by itself: summary, grouped attempts, annotations, outputs; verify prints its witness', async () => {
    assert.ok(fs.existsSync(path.join(work, 'prefix')), 'the first test installed nothing');
    const cart = cartCopy('cart-actions');
    const job = actionsJob('job');
    const inJob = { ...job.env, GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_WORKSPACE: cart };
    // Before the fix: verify's stdout is its witness, whatever the job, and its exit says not green.
    const before = await greenloop(['verify'], cart, '', inJob);
    assert.equal(before.code, 1, before.stderr);
    assert.equal((JSON.parse(before.stdout) as { green: boolean }).green, false);

    await server?.close();
    server = await startFakeOpenAIServer(DEMO_STEPS);
    const fix = await greenloop(['fix', '--actor', 'openai', '--base-url', server.url, '--model', 'scripted-demo', '--json'], cart, '', inJob);
    assert.equal(fix.code, 0, fix.stderr);
    // stdout is the report and nothing else; the workflow commands went to stderr, which the runner reads too.
    assert.equal((JSON.parse(fix.stdout) as { outcome: string }).outcome, 'green');
    // (A workflow command escapes ':' in a property as %3A.)
    assert.match(fix.stderr, /^::group::Greenloop attempt 1\/8$/m, fix.stderr);
    assert.match(fix.stderr, /^::notice title=Greenloop%3A green::The tests pass after \d+ attempts/m, fix.stderr);
    const summary = fs.readFileSync(job.summary, 'utf8');
    assert.match(summary, /Greenloop: green/);
    assert.match(summary, /Failing before → after:<\/b> 3 failing, 1 type error → 0 failing/, summary);
    const outputs = fs.readFileSync(job.output, 'utf8');
    assert.match(outputs, /^outcome<<.+\ngreen\n/m, outputs);
    assert.match(outputs, /^failing-before<<.+\n3\n/m, outputs);
    // The report goes to the runner's temp, for actions/upload-artifact.
    const reportFile = path.join(job.temp, 'greenloop', 'report.json');
    assert.equal((JSON.parse(fs.readFileSync(reportFile, 'utf8')) as { outcome: string }).outcome, 'green');

    const after = await greenloop(['verify', '--json'], cart, '', inJob);
    assert.equal(after.code, 0, after.stdout + after.stderr);
    assert.equal((JSON.parse(after.stdout) as { green: boolean }).green, true);
  });

  it('fix --format github outside a job: a run that gives up annotates each failing test on its file and line', async () => {
    const cart = cartCopy('cart-format');
    const job = actionsJob('format');
    await server?.close();
    // One attempt, the demo's first answer: one test fixed, two still failing, and tsc's error.
    server = await startFakeOpenAIServer(DEMO_STEPS.slice(0, 1));
    const fix = await greenloop(['fix', '--format', 'github', '--max-iterations', '1', '--actor', 'openai', '--base-url', server.url, '--model', 'scripted-demo'], cart, '', { ...job.env, GITHUB_WORKSPACE: cart });
    assert.equal(fix.code, 1, fix.stderr);
    assert.match(fix.stderr, /^::warning title=Greenloop escalated \(budget-iterations\)::/m, fix.stderr);
    assert.match(fix.stderr, /^::error title=Failing test%3A Cart > total > applies a percentage discount,file=test\/cart\.test\.js,line=\d+(,col=\d+)?::/m, fix.stderr);
    assert.match(fix.stderr, /^::error title=TS2322,file=src\/format\.js,line=\d+,col=\d+::/m, fix.stderr);
    const summary = fs.readFileSync(job.summary, 'utf8');
    assert.match(summary, /Greenloop: escalated/);
    assert.match(summary, /applies a percentage discount/);
    assert.match(fs.readFileSync(job.output, 'utf8'), /^outcome<<.+\nescalated\n/m);
  });
});

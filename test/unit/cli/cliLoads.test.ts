// What the bundled CLI loads for what it does: `--help` loads no engine, and a Claude Code Stop check — a process
// started on every stop — loads neither the MCP server's bundle (its SDK, zod, ajv) nor any model actor or the agent
// gateway. Recorded inside the real CLI process by a preloaded module (support/recordLoads.js); no clock.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, tempProject } from '../support/cli';

const RECORDER = path.join(__dirname, '..', 'support', 'recordLoads.js');

describe('the CLI loads only what a command needs (real bundle)', function () {
  this.timeout(120_000);
  let project: string;
  let stateDir: string;
  let loadsFile: string;

  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('state');
    loadsFile = path.join(stateDir, 'loads.json');
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function loadsOf(args: string[], input?: string): Promise<{ files: string[]; keys: string[]; stdout: string }> {
    const res = await runCli(args, { input, env: { NODE_OPTIONS: `--require ${RECORDER}`, GREENLOOP_TEST_LOADS: loadsFile } });
    assert.equal(res.code, 0, res.stderr);
    const { files, keys } = JSON.parse(fs.readFileSync(loadsFile, 'utf8')) as { files: string[]; keys: string[] };
    return { files: files.map((f) => path.basename(f)), keys, stdout: res.stdout };
  }

  it('--help loads neither the engine chunk nor the MCP server', async () => {
    const { files, stdout } = await loadsOf(['--help']);
    assert.match(stdout, /greenloop hook claude-stop/);
    assert.ok(files.includes('cli.js'), files.join(', '));
    assert.ok(!files.includes('runtime.js'), `--help loaded ${files.join(', ')}`);
    assert.ok(!files.includes('mcp.js'), `--help loaded ${files.join(', ')}`);
  });

  it('a Stop check loads no MCP bundle, no model actor and no agent gateway — and still judges the edit', async () => {
    const hook = (name: string) => loadsOf(['hook', 'claude-stop', '--tsc', 'off', '--state-dir', stateDir],
      JSON.stringify({ session_id: 'loads', cwd: project, hook_event_name: name, stop_hook_active: name === 'Stop' }));
    await hook('SessionStart');
    const calc = path.join(project, 'src', 'calc.js');
    fs.writeFileSync(calc, fs.readFileSync(calc, 'utf8').replace('return a - b;', 'return a + b;'));
    const { files, keys, stdout } = await hook('Stop');
    assert.match(stdout, /Verdict: progress/);
    assert.ok(keys.includes('session/checkSession'), `the recorder saw no chunk module: ${keys.join(', ')}`);
    assert.ok(!files.includes('mcp.js'), `the hook loaded ${files.join(', ')}`);
    assert.deepEqual(keys.filter((k) => k.startsWith('actors/')), [], 'model actors and the gateway stay unloaded');
  });
});

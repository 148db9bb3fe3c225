// Secrets stay out of everything Greenloop writes or sends, through the real CLI: the model key never reaches the
// test command or an agent that was not given it; a test that prints its environment, an Authorization header and a
// URL with a password, and a model that echoes the key, leave no trace in the state dir, the report, stderr or any
// request the model server received.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir } from '../support/cli';
import type { CliResult } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

const MODEL_KEY = 'sk-greenloop-PLANTED-KEY-123456';
const SERVICE_TOKEN = 'tok-PLANTED-service-7890';
const DB_PASSWORD = 'pw-PLANTED-database-4455';
const BEARER = 'planted-bearer-ABC123456';
const URL_PASSWORD = 'planted-url-pass-998877';
const PLANTED = { MODEL_KEY, SERVICE_TOKEN, DB_PASSWORD, BEARER, URL_PASSWORD };

/** Every file under dir, the shadow git store included, as raw bytes. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

/** "<secret> in <where>" for every planted secret found in any of the places. */
function leaks(places: Record<string, string | Buffer>): string[] {
  const found: string[] = [];
  for (const [where, content] of Object.entries(places)) {
    for (const [name, secret] of Object.entries(PLANTED)) if (content.includes(secret)) found.push(`${name} in ${where}`);
  }
  return found;
}

/**
 * A protected test that fails loudly with everything a careless suite prints: its whole environment, an
 * Authorization header, a git URL with a password. It also appends its variable names to `dumpFile`.
 */
function plantLeakyTest(h: FixHarness, dumpFile: string): void {
  h.write('test/env.test.js', [
    "'use strict';",
    "const { it } = require('node:test');",
    "const fs = require('node:fs');",
    "it('talks to the service', () => {",
    `  fs.appendFileSync(${JSON.stringify(dumpFile)}, JSON.stringify(Object.keys(process.env)) + '\\n');`,
    '  console.log(JSON.stringify(process.env));',
    `  console.log('Authorization: Bearer ${BEARER}');`,
    `  console.log('pushing to https://deploy:${URL_PASSWORD}@git.example.com/repo.git');`,
    `  throw new Error('request refused; headers: Authorization: Bearer ${BEARER}; remote https://deploy:${URL_PASSWORD}@git.example.com; '`,
    "    + 'token=' + process.env.MY_SERVICE_TOKEN + ' password=' + process.env.DB_PASSWORD + ' key=' + process.env.PLANTED_MODEL_KEY);",
    '});',
    '',
  ].join('\n'));
}

function envNames(dumpFile: string): string[][] {
  return fs.readFileSync(dumpFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]);
}

function stateDirLeaks(stateDir: string, res: CliResult): string[] {
  const places: Record<string, string | Buffer> = { stdout: res.stdout, stderr: res.stderr };
  for (const f of filesUnder(stateDir)) places[path.relative(stateDir, f)] = fs.readFileSync(f);
  return leaks(places);
}

describe('greenloop fix keeps secrets out of what it writes and sends (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  let scratch: string;
  beforeEach(async () => {
    h = await fixHarness('calc');
    scratch = tempDir('secrets');
  });
  afterEach(async () => {
    await h.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('withholds the model key from the test command; none of 5 planted secrets reaches a file of the state dir, the report, stderr or a request', async () => {
    const dump = path.join(scratch, 'test-env.jsonl');
    plantLeakyTest(h, dump);
    // The model echoes the key and writes code that prints the key's variables and the service token.
    const printsSecrets = edit('src/calc.js', "'use strict';",
      "'use strict';\nconsole.log('model code:', process.env.PLANTED_MODEL_KEY, process.env.OPENAI_API_KEY, process.env.MY_SERVICE_TOKEN, process.env.DB_PASSWORD);",
      `Your key ${MODEL_KEY} showed up in the output, so I log it to debug.`);
    const res = await h.fix(
      [answer(`${printsSecrets}\n${FIX_ADD}`), answer(`Still seeing ${MODEL_KEY}; fixing mul.\n\n${FIX_MUL}`), answer(`Key ${MODEL_KEY} again.\n\n${FIX_MUL}`)],
      ['--api-key-env', 'PLANTED_MODEL_KEY', '--max-iterations', '3', '--patience', '3', '--report', path.join(h.stateDir, 'report.json')],
      { env: { PLANTED_MODEL_KEY: MODEL_KEY, OPENAI_API_KEY: MODEL_KEY, MY_SERVICE_TOKEN: SERVICE_TOKEN, DB_PASSWORD } },
    );
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(h.server.requests.length, 3, res.stderr);
    assert.strictEqual(h.server.requests[0].headers.authorization, `Bearer ${MODEL_KEY}`, 'the key itself still reaches the model server, in its header');

    // The test command ran with the person's other credentials but without any variable holding the model key.
    const runs = envNames(dump);
    assert.ok(runs.length >= 3, `the test command ran at baseline and after the attempts (${runs.length} runs)`);
    for (const names of runs) {
      for (const keyVar of ['PLANTED_MODEL_KEY', 'OPENAI_API_KEY', 'GREENLOOP_API_KEY']) assert.ok(!names.includes(keyVar), `${keyVar} reached the test command`);
      assert.ok(names.includes('MY_SERVICE_TOKEN'), 'the tests keep the variables they may need');
    }

    const places: Record<string, string> = {};
    h.server.requests.forEach((r, i) => (places[`request ${i + 1}`] = r.rawBody));
    assert.deepStrictEqual([...stateDirLeaks(h.stateDir, res), ...leaks(places)], []);
    // Not vacuous: the secrets were on their way, and the masks stand where they were.
    assert.match(h.prompt(1), /Authorization: Bearer \*\*\*/);
    assert.match(h.prompt(1), /https:\/\/deploy:\*\*\*@git\.example\.com/);
    assert.match(h.prompt(1), /token=\*\*\* password=\*\*\* key=undefined/);
    assert.match(h.prompt(1), /Your explanation then: Your key \*\*\* showed up/);
    assert.match(res.report.iterations[0].hypothesis, /Your key \*\*\* showed up/);
  });

  it('an agent does not inherit the model key; given its own with --api-key-env, it gets that one only, and its words are masked', async () => {
    const testDump = path.join(scratch, 'test-env.jsonl');
    const agentDump = path.join(scratch, 'agent-env.jsonl');
    plantLeakyTest(h, testDump);
    const agent = path.join(scratch, 'agent.js');
    fs.writeFileSync(agent, [
      `require('fs').appendFileSync(${JSON.stringify(agentDump)}, JSON.stringify(Object.keys(process.env)) + '\\n');`,
      "console.log('agent: my key is ' + process.env.AGENT_OWN_KEY + ', Greenloop key ' + process.env.GREENLOOP_API_KEY);",
      'process.exit(1);',
    ].join('\n'));
    const env = { GREENLOOP_API_KEY: MODEL_KEY, AGENT_OWN_KEY: SERVICE_TOKEN, MY_SERVICE_TOKEN: SERVICE_TOKEN };
    const base = ['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', `node ${JSON.stringify(agent)}`, '--tsc', 'off', '--state-dir', h.stateDir, '--json', '--max-iterations', '1'];

    const plain = await runCli(base, { env });
    assert.strictEqual(plain.code, 1, plain.stderr);
    const testRunsBefore = envNames(testDump).length;
    const given = await runCli([...base, '--api-key-env', 'AGENT_OWN_KEY'], { env });
    assert.strictEqual(given.code, 1, given.stderr);

    const [plainAgent, givenAgent] = envNames(agentDump);
    assert.ok(!plainAgent.includes('GREENLOOP_API_KEY'), 'the agent inherited the model key');
    assert.ok(!givenAgent.includes('GREENLOOP_API_KEY'), 'the agent given its own key also inherited Greenloop\'s');
    assert.ok(givenAgent.includes('AGENT_OWN_KEY'), 'the agent gets the variable it was given');
    for (const names of envNames(testDump)) assert.ok(!names.includes('GREENLOOP_API_KEY'), 'the test command inherited the model key');
    assert.ok(!envNames(testDump).slice(testRunsBefore).some((names) => names.includes('AGENT_OWN_KEY')), 'the test command saw the agent\'s key');
    assert.deepStrictEqual([...stateDirLeaks(h.stateDir, plain), ...stateDirLeaks(h.stateDir, given)], []);
    assert.match(given.stdout, /agent: my key is \*\*\*/, 'the agent\'s last words are reported, masked');
  });
});

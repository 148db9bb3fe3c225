// tsc runs only after an attempt changed a file it sees, incrementally, with its build info in the state folder
// (never the workspace): the real CLI, real tsc behind a wrapper that counts its runs, a scripted model.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, edit } from '../../support/calcAnswers';

const FIX_DATA = edit('data/answer.txt', '41', '42', 'The answer is 42.');
const TOUCH_TS = edit('src/greet.ts', "export const greet = (n: string): string => 'hi ' + n;", "// Says hello.\nexport const greet = (n: string): string => 'hi ' + n;", 'A comment.');

describe('greenloop fix: tsc only after a change it can see, its build info in the state folder', function () {
  this.timeout(300_000);
  let server: FakeOpenAIServer;
  let project: string;
  let stateDir: string;
  let log: string;

  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    project = tempDir('tsc-seen');
    stateDir = tempDir('tsc-seen-state');
    log = path.join(stateDir, '..', `${path.basename(stateDir)}.tsc-runs`);
    const w = (rel: string, text: string, mode?: number) => {
      fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
      fs.writeFileSync(path.join(project, rel), text, mode ? { mode } : undefined);
    };
    w('package.json', '{ "name": "tsc-seen", "private": true, "scripts": { "test": "node --test test/" } }\n');
    w('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', types: [] }, include: ['src'] }));
    w('src/greet.ts', "export const greet = (n: string): string => 'hi ' + n;\n");
    w('data/answer.txt', '41\n');
    w('test/answer.test.js', "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst fs = require('node:fs');\nconst path = require('node:path');\ntest('the answer', () => assert.strictEqual(fs.readFileSync(path.join(__dirname, '..', 'data', 'answer.txt'), 'utf8').trim(), '42'));\ntest('greets', () => {});\n");
    w('.gitignore', 'node_modules/\n');
    // The workspace's own tsc, behind a wrapper that counts its runs.
    w('node_modules/.bin/tsc', `#!/bin/sh\necho run >> "$GREENLOOP_TEST_TSC_LOG"\nexec "${process.execPath}" "${path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')}" "$@"\n`, 0o755);
    const git = (...a: string[]) => execFileSync('git', a, { cwd: project, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
  });
  afterEach(async () => {
    await server.close();
    for (const dir of [project, stateDir]) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(log, { force: true });
  });

  async function fix(...answers: string[]): Promise<any> {
    server.push(...answers.map((a) => answer(a)));
    const res = await runCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'on', '--state-dir', stateDir, '--json'], { env: { GREENLOOP_TEST_TSC_LOG: log } });
    const report = JSON.parse(res.stdout);
    assert.strictEqual(report.outcome, 'green', res.stderr);
    return report;
  }
  const tscRuns = () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
  const workspaceBuildInfo = () => execFileSync('find', [project, '-name', '*.tsbuildinfo', '-not', '-path', '*/node_modules/*'], { encoding: 'utf8' }).trim();

  it('an attempt that changes only a file tsc does not see is not type-checked again', async () => {
    await fix(FIX_DATA);
    assert.strictEqual(tscRuns(), 1, 'tsc ran for the baseline only');
    const kept = fs.readdirSync(path.join(stateDir, 'tsc'));
    assert.ok(kept.some((f) => f.endsWith('.tsbuildinfo')), `the build info is in the state folder: ${kept.join(', ')}`);
    assert.strictEqual(workspaceBuildInfo(), '', 'no build info in the workspace');
  });

  it('an attempt that changes a TypeScript file is type-checked', async () => {
    await fix(`${TOUCH_TS}\n${FIX_DATA}`);
    assert.strictEqual(tscRuns(), 2, 'the baseline, and the whole-suite run after the edit');
    assert.strictEqual(workspaceBuildInfo(), '');
  });
});

// `greenloop verify` and `fix` on dotnet-ledger through a stand-in `dotnet` (test/fixtures/runners/dotnet/dotnet) that
// REPLAYS the recorded outputs of test/fixtures/captured/dotnet from the sources' state — no .NET SDK installs here, so
// C# is tested on recordings: the default command (Ledger.sln suggests `dotnet test`) and a JUnit-logger run read with
// --junit give the failing IDs dotnet-states.json lists for each state (those of the recorded JUnit log and TRX), the
// build error is a load error of its file; fix refuses a test edit and judges each fix by a --filter run first.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer } from '../../support/calcAnswers';

const PROJECTS = path.join(ROOT, 'test', 'fixtures', 'projects');
const STAND_IN = path.join(ROOT, 'test', 'fixtures', 'runners', 'dotnet');
type Replacement = { file: string; search: string; replace: string };
const STATES = JSON.parse(fs.readFileSync(path.join(PROJECTS, 'dotnet-states.json'), 'utf8')) as {
  states: Record<string, Replacement[]>; failing: Record<string, string[]>; loadErrorFiles: Record<string, string[]>;
};
const env = { PATH: `${STAND_IN}${path.delimiter}${process.env.PATH}` };

function ledgerIn(state: string): string {
  const dir = tempDir(`dotnet-ledger-${state}`);
  fs.cpSync(path.join(PROJECTS, 'dotnet-ledger'), dir, { recursive: true });
  for (const r of STATES.states[state]) {
    const file = path.join(dir, r.file);
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(text.split(r.search).length, 2, `${state}: ${r.file}`);
    fs.writeFileSync(file, text.replace(r.search, () => r.replace));
  }
  return dir;
}

function csEdit(file: string, search: string, replace: string, prose: string): string {
  return `${prose}\n\n${file}\n\`\`\`csharp\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

describe('greenloop on dotnet test, through a stand-in that replays recorded outputs (no .NET SDK here)', function () {
  this.timeout(180_000);

  it('verify, each state: the default command and --junit give the recorded IDs; the build error is a load error', async () => {
    await Promise.all(['green', 'one-bug', 'two-bugs', 'compile-error'].map(async (state) => {
      const dir = ledgerIn(state);
      try {
        const [plain, junit] = await Promise.all([
          runCli(['verify', '--cwd', dir, '--tsc', 'off'], { env }),
          runCli(['verify', '--cwd', dir, '--tsc', 'off', '--test-cmd', 'dotnet test --logger "junit;LogFilePath=TestResults/junit.xml"', '--junit', 'TestResults/junit.xml'], { env }),
        ]);
        for (const [how, res] of [['default', plain], ['--junit', junit]] as const) {
          assert.ok(res.stdout.trim(), `${state} ${how}: ${res.stderr}`);
          const w = JSON.parse(res.stdout);
          assert.deepEqual(w.failing, STATES.failing[state], `${state} ${how}`);
          assert.equal(w.green, state === 'green', `${state} ${how}`);
          assert.equal(w.loadError, state === 'compile-error', `${state} ${how}`);
          if (how === 'default') {
            assert.equal(w.runner, 'dotnet');
            assert.deepEqual(w.loadErrorFiles, STATES.loadErrorFiles[state] ?? [], state);
            if (state === 'compile-error') assert.equal(w.loadErrors[0].line, 8);
          }
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }));
  });

  it('fix: a test edit refused; each fix judged by the failing tests first (--filter), then the whole suite', async () => {
    const server = await startFakeOpenAIServer([]);
    const dir = ledgerIn('two-bugs');
    const state = tempDir('dotnet-ledger-state');
    try {
      const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
      server.push(
        answer(csEdit('tests/Ledger.Tests/MoneyTests.cs', '        [InlineData(-5, "-0.05")]', '        [InlineData(-5, "0.05")]', 'The expectation looks wrong.')),
        answer(csEdit('src/Ledger/Money.cs', '        var sign = "";', '        var sign = Cents < 0 ? "-" : "";', 'Format() drops the sign.')),
        answer(csEdit('src/Ledger/Parsing/AmountParser.cs', '        var clean = text.Trim();', '        var clean = text.Trim().Replace(",", "");', 'Parse() must drop the thousands separator.')),
      );
      const res = await runCli(['fix', '--cwd', dir, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', state, '--json'], { env, timeoutMs: 170_000 });
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.outcome, 'green', res.stderr);
      assert.deepStrictEqual(report.baseline.failing, STATES.failing['two-bugs']);
      assert.deepStrictEqual(report.iterations.map((i: any) => i.verdict), ['invalid-proposal', 'progress', 'green']);
      assert.match(report.iterations[0].note, /protected/);
      const [, progress, green] = report.iterations;
      for (const it of [progress, green]) {
        assert.strictEqual(it.testRuns[0].scope, 'targeted');
        assert.match(it.testRuns[0].command, /^dotnet test --filter '.*FullyQualifiedName=Ledger\.Tests\.Parsing\.AmountParserTests\.ParsesDecimals/);
        assert.ok(it.testRuns.some((r: any) => r.scope === 'full'));
      }
      assert.strictEqual(progress.testRuns[0].tests, 6, 'KeepsTheSign\'s 2 rows and ParsesDecimals\' 4: a theory\'s method runs whole');
      assert.strictEqual(progress.testRuns.find((r: any) => r.scope === 'full').tests, 14);
    } finally {
      await server.close();
      for (const d of [dir, state]) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});

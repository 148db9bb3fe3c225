// The dotnet room's facts: the commands that start it, the command a solution or a test project suggests, its files.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runnerHints } from '../../../src/runners/runnerHint';
import { suggestedTestCommand } from '../../../src/runners/registry';

describe('the dotnet room', () => {
  it('is started by dotnet test, not by other dotnet commands', () => {
    for (const command of ['dotnet test', 'dotnet test Ledger.sln --logger trx', 'dotnet build && dotnet test --no-build', '/usr/share/dotnet/dotnet test']) {
      assert.deepEqual(runnerHints(command, null), ['dotnet', 'trx'], command);
    }
    assert.deepEqual(runnerHints('dotnet build', null), []);
  });

  it('a .sln, or a test project at the top, suggests dotnet test; a library project does not', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-dotnet-room-'));
    try {
      fs.writeFileSync(path.join(dir, 'Ledger.csproj'), '<Project Sdk="Microsoft.NET.Sdk"></Project>\n');
      assert.equal(suggestedTestCommand(dir), null);
      fs.writeFileSync(path.join(dir, 'Checks.csproj'), '<Project><ItemGroup><PackageReference Include="Microsoft.NET.Test.Sdk" /></ItemGroup></Project>\n');
      assert.deepEqual(suggestedTestCommand(dir), { command: 'dotnet test', because: 'Checks.csproj', runner: 'dotnet' });
      fs.writeFileSync(path.join(dir, 'Ledger.sln'), '\n');
      assert.deepEqual(suggestedTestCommand(dir), { command: 'dotnet test', because: 'Ledger.sln', runner: 'dotnet' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const ledger = path.join(__dirname, '..', '..', 'fixtures', 'projects', 'dotnet-ledger');
    assert.deepEqual(suggestedTestCommand(ledger), { command: 'dotnet test', because: 'Ledger.sln', runner: 'dotnet' });
  });
});

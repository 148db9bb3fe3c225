// dotnet test narrowed with --filter, command in, command out (no .NET SDK here: the filter's syntax is VSTest's,
// https://learn.microsoft.com/dotnet/core/testing/selective-unit-tests, checked on paper).
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { narrowToTargets } from '../../../src/runners/narrow';

function narrow(testCommand: string, ids: string[]): string {
  const t = narrowToTargets({ testCommand, runner: 'dotnet', targets: ids.map((id) => ({ id })) });
  return t.ok ? t.command : `cannot narrow: ${t.why}`;
}

/** The words a real shell passes to a program for this command line. */
function shellWords(command: string): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('narrowing dotnet test to the failing tests', () => {
  it('FullyQualifiedName= the method (xUnit, MSTest) or ~ the method and its arguments (NUnit), a nested class with its +', () => {
    const command = narrow('dotnet test Ledger.sln -c Release --filter Category!=Slow', [
      'Ledger.Tests.MoneyTests > Formatting > KeepsTheSign(cents: -5, expected: "-0.05")',
      'Ledger.Tests.MoneyTests > Formatting > KeepsTheSign(cents: -1999, expected: "-19.99")',
      'Ledger.Tests.RoundingTests > Rounds(2.345m,2.35m)',
    ]);
    const words = shellWords(command);
    assert.deepEqual(words.slice(0, 5), ['dotnet', 'test', 'Ledger.sln', '-c', 'Release']);
    assert.equal(words[5], '--filter');
    assert.equal(words[6], [
      'FullyQualifiedName=Ledger.Tests.MoneyTests+Formatting.KeepsTheSign',
      'FullyQualifiedName~Ledger.Tests.MoneyTests+Formatting.KeepsTheSign\\(',
      'FullyQualifiedName=Ledger.Tests.RoundingTests.Rounds',
      'FullyQualifiedName~Ledger.Tests.RoundingTests.Rounds\\(',
    ].join('|'));
    assert.equal(words.length, 7, 'the old filter is gone');
  });

  it('a build step in front stays in front; an ID without a class cannot be narrowed', () => {
    assert.match(narrow('dotnet build && dotnet test --no-build', ['A.B > C']), /^dotnet build && dotnet test --no-build --filter 'FullyQualifiedName=A\.B\.C\|/);
    assert.match(narrow('dotnet test', ['HalvesEvenly']), /^cannot narrow: "HalvesEvenly" names no class/);
  });
});

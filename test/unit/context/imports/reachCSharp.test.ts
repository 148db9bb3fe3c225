// Following C# from a failing test: `using Ns;` reaches the files declaring namespace Ns and a type the test names,
// within the projects its .csproj references; the test's own namespace (and its parents) need no `using`.
import * as assert from 'assert';
import { TempWorkspace } from './workspace';

describe('import reach: C#', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('using within project references; a namespace\'s files the test does not name are not reached', async () => {
    ws.write({
      'src/Ledger/Ledger.csproj': '<Project Sdk="Microsoft.NET.Sdk"/>',
      'src/Ledger/Book.cs': 'namespace Ledger.Core;\n\npublic class Book { public int Balance() => Fees.After(1); }\n',
      'src/Ledger/Fees.cs': 'namespace Ledger.Core\n{\n    public static class Fees { public static int After(int c) => c; }\n}\n',
      'src/Ledger/Report.cs': 'namespace Ledger.Core;\n\npublic class Report {}\n',
      'src/Other/Other.csproj': '<Project Sdk="Microsoft.NET.Sdk"/>',
      'src/Other/Book.cs': 'namespace Ledger.Core;\n\npublic class Book {}\n',
      'tests/Ledger.Tests/Ledger.Tests.csproj': '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><ProjectReference Include="..\\..\\src\\Ledger\\Ledger.csproj" /></ItemGroup></Project>',
      'tests/Ledger.Tests/Helpers.cs': 'namespace Ledger.Tests;\n\nstatic class Make { public static Book Book() => new(); }\n',
      'tests/Ledger.Tests/BookTests.cs': 'using Ledger.Core;\nusing Xunit;\n\nnamespace Ledger.Tests;\n\npublic class BookTests\n{\n    [Fact]\n    public void Balances() => Assert.Equal(1, Make.Book().Balance());\n}\n',
    });
    assert.deepStrictEqual(await ws.order(['tests/Ledger.Tests/BookTests.cs'], 2), [
      'tests/Ledger.Tests/BookTests.cs@0', 'src/Ledger/Book.cs@1', 'tests/Ledger.Tests/Helpers.cs@1', 'src/Ledger/Fees.cs@2',
    ]);
  });
});

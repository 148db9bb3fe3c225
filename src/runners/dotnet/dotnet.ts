// dotnet test (VSTest, with xUnit, NUnit or MSTest): its console (`Failed Ns.Class.Method(a: 1) [3 ms]`, the
// `Failed!  - Failed: …` and "Total tests" summaries), its TRX log (`--logger trx`) and the JUnit logger's XML; IDs
// `Namespace.Class > Method(args)` (a nested class one part more); MSBuild's `File.cs(12,5): error CS1002` as a load
// error; narrowed with `--filter FullyQualifiedName=…`. Tested on recorded outputs only: no .NET SDK installs here.
import * as fs from 'fs';
import * as path from 'path';
import type { Runner } from '../runner';

export const dotnet: Runner = {
  name: 'dotnet',
  formats: ['dotnet', 'trx'],
  startsAt: (w, i) => (/(^|[\\/])dotnet(\.exe)?$/.test(w[i]) && w[i + 1] === 'test' ? i + 2 : null),
  files: {
    tests: ['**/*Tests.csproj', '**/*.Tests/**', '**/*Tests/**'],
    config: ['**/*.runsettings', '**/xunit.runner.json'],
  },
  // What dotnet test builds and writes (`bin/` alone is too common a folder name to claim).
  regenerated: ['**/TestResults/**', '**/bin/Debug/**', '**/bin/Release/**', '**/obj/**'],
  // A filter or a project that selects no test: dotnet test exits 0 all the same.
  noTests: [/^No test matches the given testcase filter /m, /^No test is available in /m],
  // The JUnit logger (JunitXml.TestLogger): one suite per test assembly, named after it.
  junitReports: /<testsuite name="[^"]+\.(?:dll|exe)" tests="\d+" skipped="\d+" failures="\d+" errors="\d+"/,
  suggestCommand(cwd) {
    let names: string[];
    try {
      names = fs.readdirSync(cwd);
    } catch {
      return null;
    }
    const solution = names.find((n) => n.endsWith('.sln') || n.endsWith('.slnx'));
    if (solution) return { command: 'dotnet test', because: solution };
    const project = names.find((n) => n.endsWith('.csproj') && isTestProject(path.join(cwd, n)));
    return project ? { command: 'dotnet test', because: project } : null;
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).dotnetCode,
};

function isTestProject(file: string): boolean {
  if (/Tests?\.csproj$/.test(file)) return true;
  try {
    return /Microsoft\.NET\.Test\.Sdk|<IsTestProject>true</.test(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

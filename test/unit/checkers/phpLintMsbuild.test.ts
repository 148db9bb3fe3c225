// The checker half for PHP and C# (issue 39, item 6): `php -l` run for real (Debian's php-cli) and `dotnet build`'s
// MSBuild diagnostics on a RECORDED output (test/fixtures/captured/checkers/dotnet-build-recorded.txt, written by hand:
// no .NET SDK here), read as a multiset witness like tsc's; and `greenloop verify --check` with php -l on a project.
import { strict as assert } from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { detectReader, formatFromCommand } from '../../../src/verify/checkers/readerChoice';
import { phpLintReader } from '../../../src/verify/checkers/readers/phpLint';
import { msbuildReader } from '../../../src/verify/checkers/readers/msbuild';
import { ROOT, runCli, tempDir } from '../support/cli';
import { needToolchain } from '../support/toolchains';

const MONEY = path.join(ROOT, 'test', 'fixtures', 'projects', 'php-money');

describe('php -l and dotnet build as checkers', () => {
  it('php -l (real): a file that does not parse is an error at its line; every file it names was checked', function () {
    needToolchain('php');
    const dir = tempDir('php-lint');
    try {
      fs.cpSync(MONEY, dir, { recursive: true });
      const money = path.join(dir, 'src', 'Money.php');
      fs.writeFileSync(money, fs.readFileSync(money, 'utf8').replace('$this->currency);\n    }\n\n    public function subtract', '$this->currency)\n    }\n\n    public function subtract'));
      // One file a run (PHP 8.2), as `find src -name '*.php' -exec php -l {} \;` runs it; PHP's error on stderr.
      const out = spawnSync('sh', ['-c', "find src -name '*.php' | sort | xargs -n1 php -l"], { cwd: dir, encoding: 'utf8' });
      const text = `${out.stdout}${out.stderr}`;
      assert.equal(detectReader(text)?.reader.format, 'php-lint', text);
      assert.equal(formatFromCommand("find src -name '*.php' -exec php -l {} \\;"), 'php-lint');
      const r = phpLintReader.read(text, { cwd: dir });
      assert.ok(r.ok);
      assert.deepEqual(r.report.diagnostics.map((d) => [d.file, d.line, d.source, d.code, d.message]), [
        ['src/Money.php', 22, 'php -l', 'ParseError', 'syntax error, unexpected token "}", expecting ";"'],
      ]);
      assert.deepEqual(r.report.checked, ['src/Currency.php', 'src/Exchange/Rates.php', 'src/Money.php']);
      assert.equal(r.report.checkedIsComplete, true);
      const clean = execFileSync('php', ['-l', 'src/Currency.php'], { cwd: dir, encoding: 'utf8' });
      const ok = phpLintReader.read(clean, { cwd: dir });
      assert.ok(ok.ok && ok.report.diagnostics.length === 0 && ok.report.checked[0] === 'src/Currency.php');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('dotnet build (recorded): CS errors by file, code and message, each once though MSBuild repeats them; warnings only when asked', () => {
    const text = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'captured', 'checkers', 'dotnet-build-recorded.txt'), 'utf8');
    assert.equal(detectReader(text)?.reader.format, 'msbuild');
    assert.equal(formatFromCommand('dotnet build --nologo'), 'msbuild');
    const r = msbuildReader.read(text, { cwd: '/home/dev/ledger' });
    assert.ok(r.ok);
    assert.deepEqual(r.report.diagnostics.map((d) => [d.file, d.line, d.column, d.code, d.source]), [
      ['src/Ledger/Money.cs', 8, 79, 'CS1002', 'dotnet build'],
      ['src/Ledger/Parsing/AmountParser.cs', 11, 21, 'CS0103', 'dotnet build'],
    ]);
    const withWarnings = msbuildReader.read(text, { cwd: '/home/dev/ledger', warnings: true });
    assert.ok(withWarnings.ok);
    assert.deepEqual(withWarnings.report.diagnostics.map((d) => d.code), ['CS1002', 'CS8602', 'CS0103']);
  });

  it('greenloop verify --check with php -l: the parse error joins the witness as a diagnostic of php -l', async function () {
    needToolchain('php', 'phpunit');
    const dir = tempDir('php-lint-verify');
    try {
      fs.cpSync(MONEY, dir, { recursive: true });
      const money = path.join(dir, 'src', 'Money.php');
      fs.writeFileSync(money, fs.readFileSync(money, 'utf8').replace("$sign = $this->minor < 0 ? '-' : '';", "$sign = $this->minor < 0 ? '-' : ''"));
      const res = await runCli(['verify', '--cwd', dir, '--tsc', 'off', '--check', "find src -name '*.php' -exec php -l {} \\;"]);
      const w = JSON.parse(res.stdout);
      assert.equal(w.green, false);
      assert.deepEqual(w.diagnostics.map((d: any) => [d.file, d.source, d.code]), [['src/Money.php', 'php -l', 'ParseError']], res.stderr);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

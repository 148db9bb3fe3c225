// Every reader on outputs captured by really running its checker on test/fixtures/checkers/<tool> (the script:
// test/fixtures/regenerate/checkers.sh). Expected values are what was planted in those projects.
import { strict as assert } from 'assert';
import { biomeReader } from '../../../src/verify/checkers/readers/biome';
import { cargoJsonReader } from '../../../src/verify/checkers/readers/cargoJson';
import { eslintReader } from '../../../src/verify/checkers/readers/eslint';
import { gccReader } from '../../../src/verify/checkers/readers/gcc';
import { goVetReader } from '../../../src/verify/checkers/readers/govet';
import { mypyReader } from '../../../src/verify/checkers/readers/mypy';
import { oxlintReader } from '../../../src/verify/checkers/readers/oxlint';
import { pylintReader } from '../../../src/verify/checkers/readers/pylint';
import { pyrightReader } from '../../../src/verify/checkers/readers/pyright';
import { tscReader } from '../../../src/verify/checkers/readers/tsc';
import { javacReader } from '../../../src/verify/checkers/readers/javac';
import { detectReader, formatFromCommand } from '../../../src/verify/checkers/readerChoice';
import { readFileSync } from 'fs';
import { join } from 'path';
import { brief, capture, read } from './support';

describe('checker readers on captured outputs', () => {
  describe('ESLint --format json (with typescript-eslint)', () => {
    it('counts errors only, names every file it linted (clean ones too) and keeps warnings for people', () => {
      const r = read(eslintReader, capture('eslint', 'errors'));
      assert.deepEqual(brief(r), [
        'src/broken.ts:2:13 eslint fatal error',
        'src/money.ts:2:7 eslint @typescript-eslint/no-unused-vars error',
        'src/money.ts:3:16 eslint @typescript-eslint/no-explicit-any error',
      ]);
      assert.deepEqual(r.checked, ['src/broken.ts', 'src/clean.ts', 'src/money.ts']);
      assert.equal(r.checkedIsComplete, true);
      assert.equal(r.all.length, 5);
      assert.equal(r.diagnostics[0].message, 'Parsing error: Expression expected.');
    });

    it('counts warnings too when asked', () => {
      const r = read(eslintReader, capture('eslint', 'errors'), { warnings: true });
      assert.deepEqual(brief(r).filter((l) => l.endsWith('warning')), [
        'src/money.ts:2:7 eslint prefer-const warning',
        'src/money.ts:4:3 eslint no-console warning',
      ]);
    });

    it('reads the report behind npm run\'s banner the same as the bare command', () => {
      assert.deepEqual(read(eslintReader, capture('eslint', 'npm-script')), read(eslintReader, capture('eslint', 'errors')));
    });

    it('a clean run is clean and still names the file it checked', () => {
      const r = read(eslintReader, capture('eslint', 'clean'));
      assert.deepEqual(r.diagnostics, []);
      assert.deepEqual(r.checked, ['src/clean.ts']);
    });

    it('a configuration crash and an empty output are not a report', () => {
      for (const name of ['config-error', 'empty', 'not-installed']) {
        const out = eslintReader.read(capture('eslint', name), { cwd: '/home/dev/project' });
        assert.equal(out.ok, false, name);
      }
    });
  });

  describe('Biome --reporter=json', () => {
    it('reads the JSON after the text diagnostics Biome prints on stderr', () => {
      const r = read(biomeReader, capture('biome', 'errors'), { warnings: true });
      assert.deepEqual(brief(r), [
        'src/money.js:2:3 biome lint/suspicious/noDebugger error',
        'src/money.js:4:3 biome lint/suspicious/noConsole warning',
      ]);
      assert.equal(r.checkedCount, 2);
      assert.equal(read(biomeReader, capture('biome', 'errors')).diagnostics.length, 1);
    });

    it('clean is clean with one file checked; a broken biome.json is no report', () => {
      const r = read(biomeReader, capture('biome', 'clean'));
      assert.deepEqual(r.diagnostics, []);
      assert.equal(r.checkedCount, 1);
      assert.equal(biomeReader.read(capture('biome', 'config-error'), { cwd: '/home/dev/project' }).ok, false);
    });

    it('refuses a report Biome cut at its default 20 diagnostics, naming the flag', () => {
      const cut = capture('biome', 'errors').replace('"diagnosticsNotPrinted":0', '"diagnosticsNotPrinted":7');
      const out = biomeReader.read(cut, { cwd: '/home/dev/project' });
      assert.ok(!out.ok && /7 diagnostics/.test(out.reason) && /--max-diagnostics=none/.test(out.reason));
    });
  });

  describe('oxlint --format json', () => {
    it('errors, warnings and the number of files linted', () => {
      const r = read(oxlintReader, capture('oxlint', 'errors'), { warnings: true });
      assert.deepEqual(brief(r), [
        'src/money.js:2:3 oxlint eslint(no-debugger) error',
        'src/money.js:3:9 oxlint eslint(eqeqeq) error',
        'src/money.js:4:3 oxlint eslint(no-console) warning',
      ]);
      assert.equal(r.checkedCount, 2);
      assert.equal(read(oxlintReader, capture('oxlint', 'clean')).diagnostics.length, 0);
      assert.equal(oxlintReader.read(capture('oxlint', 'config-error'), { cwd: '/' }).ok, false);
    });
  });

  describe('pyright --outputjson', () => {
    it('0-based ranges become 1-based positions; absolute paths become workspace-relative', () => {
      const r = read(pyrightReader, capture('pyright', 'errors'));
      assert.deepEqual(brief(r), [
        'app/money.py:3:18 pyright reportAssignmentType error',
        'app/money.py:4:14 pyright reportAttributeAccessIssue error',
        'app/money.py:8:12 pyright reportReturnType error',
      ]);
      assert.match(r.diagnostics[1].message, /^Cannot access attribute "to_fixed" for class "float"/);
      assert.equal(r.checkedCount, 2);
      assert.equal(read(pyrightReader, capture('pyright', 'errors'), { warnings: true }).diagnostics.length, 5);
    });

    it('a broken pyrightconfig.json still prints a report, of zero files analysed', () => {
      const r = read(pyrightReader, capture('pyright', 'config-error'));
      assert.equal(r.checkedCount, 0);
      assert.deepEqual(r.all, []);
    });
  });

  describe('mypy text', () => {
    const expected = ['app/money.py:3 assignment', 'app/money.py:4 attr-defined', 'app/money.py:8 return-value'];
    it('with and without column numbers: the same errors, codes and checked-file count', () => {
      for (const name of ['errors', 'columns']) {
        const r = read(mypyReader, capture('mypy', name));
        assert.deepEqual(r.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`), expected, name);
        assert.equal(r.checkedCount, 2);
      }
      assert.equal(read(mypyReader, capture('mypy', 'columns')).diagnostics[0].column, 18);
      assert.equal(read(mypyReader, capture('mypy', 'errors')).diagnostics[1].message, '"float" has no attribute "to_fixed"');
    });

    it('clean names its count; a syntax error is an error; a usage error is not mypy output', () => {
      assert.equal(read(mypyReader, capture('mypy', 'clean')).checkedCount, 1);
      assert.deepEqual(brief(read(mypyReader, capture('mypy', 'syntax-error'))), ['app/broken.py:1:0 mypy syntax error']);
      assert.equal(mypyReader.read(capture('mypy', 'config-error'), { cwd: '/' }).ok, false);
    });
  });

  describe('pylint --output-format=json', () => {
    it('error and fatal count; warning, refactor and convention only when warnings are asked for', () => {
      const text = capture('pylint', 'errors');
      assert.deepEqual(brief(read(pylintReader, text)), ['app/money.py:8:12 pylint undefined-variable error']);
      const all = read(pylintReader, text, { warnings: true });
      assert.equal(all.diagnostics.length, 8);
      assert.deepEqual(all.checked, ['app/clean.py', 'app/money.py']);
      assert.deepEqual(read(pylintReader, capture('pylint', 'clean')).diagnostics, []);
    });
  });

  describe('go vet', () => {
    it('text and -json give the same findings; -json adds the analyzer as the code', () => {
      const text = read(goVetReader, capture('govet', 'errors'));
      const json = read(goVetReader, capture('govet', 'json'));
      const where = (r: typeof text): string[] => r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`);
      assert.deepEqual(where(text), where(json));
      assert.deepEqual(where(text), [
        'money.go:7:9 fmt.Sprintf format %s has arg cents of wrong type int',
        'other/other.go:6:13 Copy passes lock by value: sync.Mutex',
        'other/other.go:7:9 return copies lock value: sync.Mutex',
      ]);
      assert.deepEqual(json.diagnostics.map((d) => d.code), ['printf', 'copylocks', 'copylocks']);
    });

    it('a type error is an error; silence is clean; the go command\'s own complaint is not a report', () => {
      assert.deepEqual(brief(read(goVetReader, capture('govet', 'type-error'))), ['broken.go:4:13 go vet typecheck error']);
      assert.deepEqual(read(goVetReader, capture('govet', 'clean')).diagnostics, []);
      assert.equal(goVetReader.read(capture('govet', 'config-error'), { cwd: '/' }).ok, false);
    });
  });

  describe('cargo --message-format=json', () => {
    it('cargo check: rustc errors with their code; notes and "for more information" never count', () => {
      const r = read(cargoJsonReader, capture('cargo', 'check-errors'), { warnings: true });
      assert.deepEqual(brief(r), ['src/lib.rs:3:22 rustc E0308 error']);
      assert.equal(r.diagnostics[0].message, 'mismatched types');
      assert.deepEqual(r.checked, ['src/lib.rs']);
    });

    it('cargo clippy: rustc and clippy warnings told apart, counted only when asked', () => {
      const text = capture('cargo', 'clippy-warnings');
      assert.deepEqual(read(cargoJsonReader, text).diagnostics, []);
      assert.deepEqual(brief(read(cargoJsonReader, text, { warnings: true })), [
        'src/lib.rs:2:9 rustc unused_variables warning',
        'src/lib.rs:3:5 clippy clippy::needless_return warning',
      ]);
    });

    it('clean names the crate root it checked; a broken Cargo.toml is no report', () => {
      const r = read(cargoJsonReader, capture('cargo', 'clean'));
      assert.deepEqual([r.diagnostics, r.checked], [[], ['src/lib.rs']]);
      assert.equal(cargoJsonReader.read(capture('cargo', 'config-error'), { cwd: '/' }).ok, false);
    });

    it('one finding reported for two targets (lib and its tests) counts once', () => {
      const line = capture('cargo', 'check-errors').split('\n').find((l) => l.includes('"code":"E0308"'));
      assert.ok(line);
      assert.equal(read(cargoJsonReader, `${line}\n${line.replace('"kind":["lib"]', '"kind":["test"]')}\n`).diagnostics.length, 1);
    });
  });

  describe('javac, through Maven (captured by test/fixtures/regenerate/maven.sh) and as javac and Gradle print it', () => {
    const maven = (name: string) => readFileSync(join(__dirname, '..', '..', 'fixtures', 'captured', 'maven', name, 'console.txt'), 'utf8');
    it('Maven\'s compile error once (it prints it twice), with its position; a clean build has none', () => {
      const out = maven('semver-compile');
      assert.equal(detectReader(out)?.reader.format, 'javac');
      const r = javacReader.read(out, { cwd: '/tmp/tmp.EawlvtzRLp/semver-compile' });
      assert.ok(r.ok);
      assert.deepEqual(r.report.diagnostics.map((d) => [d.file, d.line, d.column, d.source, d.message, d.severity]), [
        ['src/main/java/org/example/semver/Range.java', 28, 29, 'javac', "bad operand types for binary operator '>='", 'error'],
      ]);
      const clean = javacReader.read(maven('semver-green').split('\n').filter((l) => !/Tests run|T E S T S/.test(l)).join('\n'), { cwd: '/' });
      assert.ok(clean.ok);
      assert.deepEqual(clean.report.diagnostics, []);
    });

    it('javac\'s and Gradle\'s own lines, a lint key as the code; the check command names the reader', () => {
      const out = 'src/main/java/a/Box.java:12: warning: [unchecked] unchecked call to add(E) as a member of the raw type List\n        items.add(x);\n                 ^\nsrc/main/java/a/Range.java:28: error: bad operand types for binary operator \'>=\'\n1 error\n';
      assert.equal(detectReader(out)?.reader.format, 'javac');
      const r = javacReader.read(out, { cwd: '/w', warnings: true });
      assert.ok(r.ok);
      assert.deepEqual(r.report.diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.severity}`), ['src/main/java/a/Box.java:12 unchecked warning', 'src/main/java/a/Range.java:28  error']);
      assert.equal(formatFromCommand('mvn -B -q test-compile'), 'javac');
      assert.equal(formatFromCommand('./gradlew compileJava compileTestJava'), 'javac');
    });
  });

  describe('GCC-style fallback', () => {
    it('errors with their position, warnings with their -W flag as the code, notes never', () => {
      const r = read(gccReader, capture('gcc', 'errors'), { warnings: true, source: 'gcc' });
      assert.deepEqual(brief(r), [
        'money.c:4:9 gcc -Wunused-variable warning',
        'money.c:5:17 gcc -Wunused-variable warning',
        'money.c:5:21 gcc  error',
        'money.c:6:12 gcc  error',
      ]);
      assert.equal(r.all.length, 5);
      assert.deepEqual(read(gccReader, capture('gcc', 'clean')).diagnostics, []);
    });

    it('names findings after the program it ran, and refuses words with no finding among them', () => {
      assert.equal(read(gccReader, 'x.sh:3:7: warning: Double quote [SC2086]', { source: 'shellcheck', warnings: true }).diagnostics[0].source, 'shellcheck');
      assert.equal(gccReader.read(capture('gcc', 'missing-file'), { cwd: '/' }).ok, false);
    });
  });

  describe('tsc through the checker interface', () => {
    it('reads tsc\'s own captures, and a broken tsconfig is no report', () => {
      const r = read(tscReader, capture('../tsc', 'plain-errors'));
      assert.deepEqual(r.diagnostics.map((d) => `${d.file} ${d.code}`), ['src/main.ts TS2304', 'src/main.ts TS2339', 'src/shapes.ts TS2322', 'src/shapes.ts TS2345']);
      assert.equal(tscReader.read(capture('../tsc', 'plain-badconfig'), { cwd: '/' }).ok, false);
    });
  });
});

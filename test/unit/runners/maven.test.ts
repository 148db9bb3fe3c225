// Maven's console and Surefire's XML, read back from real runs of the two Java fixture projects (test/fixtures/projects/
// java-semver, a single module, and java-textkit, two modules) captured by test/fixtures/regenerate/maven.sh in four
// states each. Expected IDs are each capture's truth.json: maven-truth.py's reading of Surefire's own reports, no
// Greenloop code involved. The console, the XML through the JUnit reader (as --junit reads it), and the two merged (as
// the verifier reads a Maven run) must all give those IDs.
import { strict as assert } from 'assert';
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { detectFormat, parseOutput, parseReports, withOwnReports } from '../../../src/runners/parseOutput';
import { narrowToTargets } from '../../../src/runners/narrow';
import { javaTestId } from '../../../src/runners/common/javaIds';
import { pluginSections } from '../../../src/runners/maven/pom';
import { cannotRunSentence } from '../../../src/verify/cannotRun';
import { suggestedTestCommand } from '../../../src/runners/registry';

const captured = join(__dirname, '..', '..', 'fixtures', 'captured', 'maven');
const projects = join(__dirname, '..', '..', 'fixtures', 'projects');

interface Capture {
  console: string;
  exit: number;
  reports: string[];
  truth: { reports: number; tests: string[]; failing: string[] };
}

function walk(dir: string): string[] {
  let out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    out = statSync(p).isDirectory() ? [...out, ...walk(p)] : [...out, p];
  }
  return out;
}

function capture(name: string): Capture {
  const dir = join(captured, name);
  let reports: string[] = [];
  try {
    reports = walk(join(dir, 'reports')).sort().map((f) => readFileSync(f, 'utf8'));
  } catch {
    reports = [];
  }
  return {
    console: readFileSync(join(dir, 'console.txt'), 'utf8'),
    exit: Number(readFileSync(join(dir, 'exit'), 'utf8').trim()),
    reports,
    truth: JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')),
  };
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

describe('maven: console and Surefire XML give one ID per test', () => {
  const states = ['green', 'onebug', 'twobugs', 'compile'];
  for (const project of ['semver', 'textkit']) {
    for (const state of states) {
      const name = `${project}-${state}`;
      it(`${name}: the console, the XML and both merged give the IDs Surefire's own reports give`, () => {
        const c = capture(name);
        const consoleRead = parseOutput(c.console);
        assert.equal(consoleRead.runner, 'maven');
        assert.deepEqual(sorted(consoleRead.failing.map((f) => f.id)), c.truth.failing, 'console');
        if (c.reports.length) {
          const xml = parseReports('junit', c.reports);
          assert.deepEqual(sorted(xml.failing.map((f) => f.id)), c.truth.failing, 'XML');
          assert.deepEqual(sorted((xml.tests ?? []).map((t) => t.id)), c.truth.tests, 'XML tests');
        }
        const merged = withOwnReports(consoleRead, c.reports.length ? parseReports('junit', c.reports) : null);
        assert.deepEqual(sorted(merged.failing.map((f) => f.id)), c.truth.failing, 'merged');
        if (c.truth.reports > 0) assert.deepEqual(sorted((merged.tests ?? []).map((t) => t.id)), c.truth.tests, 'merged tests');
        assert.equal(merged.loadError, state === 'compile', 'load error');
        if (state !== 'compile') assert.equal((merged.passedCount ?? 0) + (merged.failedCount ?? 0), c.truth.tests.length);
      });
    }
  }

  it('a compile error is a load error with javac\'s file and line', () => {
    const r = parseOutput(capture('semver-compile').console);
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.loadErrors?.length, 1);
    const e = r.loadErrors![0];
    assert.match(e.file, /\/src\/main\/java\/org\/example\/semver\/Range\.java$/);
    assert.equal(e.line, 28);
    assert.match(e.message, /bad operand types for binary operator '>='\nfirst type: {2}int\nsecond type: java\.lang\.String/);
    // Two modules, the second one broken: the first one's tests ran and passed, the build is still a load error.
    const t = parseOutput(capture('textkit-compile').console);
    assert.equal(t.loadError, true);
    assert.match(t.loadErrors![0].file, /\/csv\/src\/main\/java\/org\/example\/csv\/CsvLine\.java$/);
  });

  it('a failure names its nested class from its stack and its file under its module, with the assertion as message', () => {
    const r = parseOutput(capture('semver-onebug').console);
    const f = r.failing[0];
    assert.equal(f.id, 'VersionTest > Ordering > comparesByPrecedence(String, String)[4]');
    assert.match(f.message, /^org\.opentest4j\.AssertionFailedError: 1\.0\.0-alpha < 1\.0\.0 ==> expected: <true> but was: <false>/);
    assert.match(f.file ?? '', /src\/test\/java\/org\/example\/semver\/VersionTest\.java$/);
    const t = parseOutput(capture('textkit-twobugs').console);
    for (const g of t.failing) assert.match(g.file ?? '', /\/strings\/src\/test\/java\/org\/example\/text\/\w+Test\.java$/, g.id);
  });

  it('Maven\'s colours in a pipe (without -B) change nothing', () => {
    const plain = parseOutput(capture('semver-twobugs').console);
    const colour = capture('semver-twobugs-colour');
    assert.match(colour.console, /\u001b\[/);
    const r = parseOutput(colour.console);
    assert.equal(r.runner, 'maven');
    assert.deepEqual(sorted(r.failing.map((f) => f.id)), sorted(plain.failing.map((f) => f.id)));
    assert.equal(r.passedCount, plain.passedCount);
  });

  it('a run that ran no test is never green: -Dtest matching nothing fails the build or, allowed, counts zero', () => {
    const failed = capture('semver-nomatch');
    assert.notEqual(failed.exit, 0);
    assert.match(cannotRunSentence({ exitCode: failed.exit, output: failed.console }, 'mvn -B test -Dtest=NoSuchTest', '/w', 0) ?? '', /found no tests to run \(No tests were executed!/);
    const allowed = capture('semver-nomatch-allowed');
    assert.equal(allowed.exit, 0);
    const r = parseOutput(allowed.console);
    assert.equal(r.runner, 'maven');
    assert.equal(r.passedCount, 0);
    assert.equal(r.failedCount, 0);
  });

  it('detects Maven output and no other parser claims it', () => {
    for (const state of ['green', 'onebug', 'compile']) assert.equal(detectFormat(capture(`semver-${state}`).console), 'maven');
  });
});

describe('maven: the Java ID rule', () => {
  it('turns the issue\'s example into the title path', () => {
    assert.equal(javaTestId('org.example.VersionTest$Ordering', 'comparesByPrecedence{String, String}[6]'), 'VersionTest > Ordering > comparesByPrecedence(String, String)[6]');
    assert.equal(javaTestId('org.example.VersionTest$Ordering', 'comparesByPrecedence(String, String)[6]'), 'VersionTest > Ordering > comparesByPrecedence(String, String)[6]');
    assert.equal(javaTestId('org.example.VersionTest', 'parsesThreeParts()'), 'VersionTest > parsesThreeParts');
    assert.equal(javaTestId('org.example.VersionTest', 'parsesThreeParts'), 'VersionTest > parsesThreeParts');
    assert.equal(javaTestId('VersionTest', 'stops before the next major'), 'VersionTest > stops before the next major');
  });
});

describe('maven: narrowing with -Dtest', () => {
  const narrow = (command: string, ids: string[]) => narrowToTargets({ testCommand: command, runner: 'maven', targets: ids.map((id) => ({ id })) });
  it('selects nested classes and methods with Surefire\'s syntax and lets modules without a match pass', () => {
    const n = narrow('mvn -B test', [
      'VersionTest > Ordering > comparesByPrecedence(String, String)[4]',
      'VersionTest > Ordering > comparesByPrecedence(String, String)[5]',
      'VersionTest > Ordering > equalVersionsCompareEqual',
      'RangeTest > Caret > zeroMajor',
    ]);
    assert.ok(n.ok);
    assert.equal(n.command, "mvn -B test '-Dtest=VersionTest$Ordering#comparesByPrecedence+equalVersionsCompareEqual,RangeTest$Caret#zeroMajor' -Dsurefire.failIfNoSpecifiedTests=false");
    assert.equal(n.tests, 4);
  });
  it('keeps a build step in front, replaces an earlier -Dtest, and adds -Dit.test when Failsafe runs', () => {
    const n = narrow('cd app && ./mvnw -B verify -Dtest=Old -DskipITs=false', ['CsvLineTest > Splitting > keepsEmptyFields']);
    assert.ok(n.ok);
    assert.equal(n.command, "cd app && ./mvnw -B verify -DskipITs=false '-Dtest=CsvLineTest$Splitting#keepsEmptyFields' -Dsurefire.failIfNoSpecifiedTests=false '-Dit.test=CsvLineTest$Splitting#keepsEmptyFields' -Dfailsafe.failIfNoSpecifiedTests=false");
  });
  it('a display name selects its class', () => {
    const n = narrow('mvn test', ['RangeTest > Caret > stops before the next major']);
    assert.ok(n.ok);
    assert.match(n.command, /'-Dtest=RangeTest\$Caret'/);
  });
  it('the narrowed run Surefire really ran reports the targets (captured with the same selection)', () => {
    const c = capture('semver-narrowed');
    const merged = withOwnReports(parseOutput(c.console), parseReports('junit', c.reports));
    const ran = (merged.tests ?? []).map((t) => t.id);
    for (const id of ['VersionTest > Ordering > comparesByPrecedence(String, String)[4]', 'RangeTest > Caret > zeroMajor']) assert.ok(ran.includes(id), id);
    const t = capture('textkit-narrowed');
    const tm = withOwnReports(parseOutput(t.console), parseReports('junit', t.reports));
    assert.deepEqual(sorted(tm.failing.map((f) => f.id)), t.truth.failing);
    assert.equal(tm.loadError, false);
  });
});

describe('maven: files, configuration and command', () => {
  it('the Surefire and Failsafe sections of pom.xml are compared, the rest of pom.xml is not', () => {
    const pom = readFileSync(join(projects, 'java-textkit', 'pom.xml'), 'utf8');
    const base = pluginSections(pom);
    assert.match(base ?? '', /maven-surefire-plugin/);
    assert.equal(pluginSections(pom.replace('<version>5.9.2</version>', '<version>5.9.3</version>')), base);
    assert.notEqual(pluginSections(pom.replace('<trimStackTrace>true</trimStackTrace>', '<trimStackTrace>true</trimStackTrace><skipTests>true</skipTests>')), base);
    assert.notEqual(pluginSections(pom.replace('<properties>', '<properties><maven.test.failure.ignore>true</maven.test.failure.ignore>')), base);
  });
  it('pom.xml suggests `mvn -B test`', () => {
    const s = suggestedTestCommand(join(projects, 'java-semver'));
    assert.deepEqual(s, { command: 'mvn -B test', because: 'pom.xml', runner: 'maven' });
  });
});

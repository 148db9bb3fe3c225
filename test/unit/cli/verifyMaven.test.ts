// `greenloop verify` on a Maven project with no --test-cmd: pom.xml suggests `mvn -B test`, and the witness's IDs are
// exactly those Surefire's own reports give (each capture's truth.json, computed by regenerate/maven-truth.py without
// Greenloop), read from the console and the fresh reports, and the same with --junit. `mvn` replays real captures
// (support/mavenReplay.ts); a stale report left in target/ from an earlier run never counts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempProject } from '../support/cli';
import { mavenReplay, mavenTruth } from '../support/mavenReplay';

const STALE = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report.xsd" name="org.example.OldTest" tests="1" errors="0" skipped="0" failures="1">
  <testcase name="fromAnEarlierRun" classname="org.example.OldTest" time="0"><failure message="old">old</failure></testcase>
</testsuite>
`;

describe('greenloop verify on Maven projects: the IDs Surefire reports, from the default command', function () {
  this.timeout(120_000);
  const projects: Record<string, string> = { semver: 'java-semver', textkit: 'java-textkit' };
  for (const project of Object.keys(projects)) {
    for (const state of ['green', 'onebug', 'twobugs', 'compile']) {
      const capture = `${project}-${state}`;
      it(`${capture}: verify and verify --junit give Surefire's failing IDs; green only when green`, async () => {
        const dir = tempProject(projects[project], { git: false });
        const bin = mavenReplay(capture);
        try {
          const stale = path.join(dir, 'target', 'surefire-reports', 'TEST-org.example.OldTest.xml');
          fs.mkdirSync(path.dirname(stale), { recursive: true });
          fs.writeFileSync(stale, STALE);
          const old = new Date(Date.now() - 3600_000);
          fs.utimesSync(stale, old, old);
          const env = { PATH: `${bin}${path.delimiter}${process.env.PATH}` };
          const truth = mavenTruth(capture);
          const plain = await runCli(['verify', '--cwd', dir, '--tsc', 'off'], { env });
          const w = JSON.parse(plain.stdout);
          assert.deepStrictEqual([...w.failing].sort(), truth.failing, plain.stderr);
          assert.strictEqual(w.green, state === 'green');
          assert.strictEqual(plain.code, state === 'green' ? 0 : 1);
          assert.strictEqual(w.loadError, state === 'compile');
          if (state === 'compile') assert.ok(w.loadErrorFiles.some((f: string) => /\.java$/.test(f)), JSON.stringify(w.loadErrorFiles));
          const junit = await runCli(['verify', '--cwd', dir, '--tsc', 'off', '--junit', '**/target/surefire-reports/TEST-*.xml'], { env });
          const j = JSON.parse(junit.stdout);
          assert.deepStrictEqual([...j.failing].sort(), truth.failing, junit.stderr);
          assert.strictEqual(j.green, state === 'green');
          // The reports alone cannot show javac's error: with none written it is a load error; with the first module's
          // reports written, Maven's exit code still keeps it from green (asserted above).
          if (project === 'semver' && state === 'compile') assert.strictEqual(j.loadError, true);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
          fs.rmSync(bin, { recursive: true, force: true });
        }
      });
    }
  }
});

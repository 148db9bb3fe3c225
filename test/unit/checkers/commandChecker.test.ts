// The check command really runs (through runCommand): replays of captured reports, a program that is not
// installed, one that crashes, one that prints nothing, one that outlives its deadline.
import { strict as assert } from 'assert';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { readCheck, runCheck } from '../../../src/verify/checkers/commandChecker';
import type { CheckOutcome } from '../../../src/verify/checkers/commandChecker';
import { capture, CAPTURED, exitCodeOf } from './support';

/** A shell command that prints a capture and exits as the checker did. */
function replay(tool: string, name: string): string {
  return `cat '${join(CAPTURED, tool, `${name}.txt`)}'; exit ${exitCodeOf(tool, name)}`;
}

function failure(out: CheckOutcome): { kind: string; sentence: string } {
  assert.ok(!out.ok, 'expected the check to fail');
  return { kind: out.kind, sentence: out.sentence };
}

describe('command checker', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenloop-check-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a real command\'s report with the reader its output shows, paths relative to the workspace', async () => {
    // The pyright capture names /home/dev/project; run in that role, paths come out relative.
    const out = await runCheck({ command: replay('pyright', 'errors') }, { cwd: dir });
    assert.ok(out.ok);
    assert.equal(out.report.format, 'pyright');
    assert.equal(out.exitCode, 1);
    assert.equal(out.report.diagnostics.length, 3);
  });

  it('counts warnings only when the check asks for them', async () => {
    const errors = await runCheck({ command: replay('eslint', 'errors') }, { cwd: dir });
    const warnings = await runCheck({ command: replay('eslint', 'errors'), warnings: true }, { cwd: dir });
    assert.ok(errors.ok && warnings.ok);
    assert.deepEqual([errors.report.diagnostics.length, warnings.report.diagnostics.length], [3, 5]);
  });

  it('a program that is not installed: one sentence naming it', async () => {
    const f = failure(await runCheck({ command: 'greenloop-no-such-linter --format json .' }, { cwd: dir }));
    assert.equal(f.kind, 'not-installed');
    assert.match(f.sentence, /`greenloop-no-such-linter` is not installed or not on PATH; install it or fix the command\.$/);
  });

  it('a checker that crashes: the exit code and the line that says why, never a clean result', async () => {
    const f = failure(await runCheck({ command: replay('eslint', 'config-error') }, { cwd: dir }));
    assert.equal(f.kind, 'crashed');
    assert.match(f.sentence, /exited with code 2 without a report \("TypeError: Key "rules": Key "no-such-rule-anywhere"/);
    const killed = failure(await runCheck({ command: 'kill -9 $$' }, { cwd: dir }));
    assert.equal(killed.kind, 'crashed');
    assert.match(killed.sentence, /was killed by SIGKILL/);
  });

  it('each captured crash is a crash, whatever the tool', async () => {
    for (const [tool, name] of [['biome', 'config-error'], ['oxlint', 'config-error'], ['pyright', 'config-error'], ['mypy', 'config-error'],
      ['pylint', 'config-error'], ['govet', 'config-error'], ['cargo', 'config-error'], ['gcc', 'missing-file']]) {
      const f = failure(await runCheck({ command: replay(tool, name) }, { cwd: dir }));
      assert.equal(f.kind, 'crashed', `${tool}/${name}: ${f.sentence}`);
    }
  });

  it('an empty output is never clean, unless the tool is one that prints nothing when clean', async () => {
    const empty = failure(await runCheck({ command: replay('eslint', 'empty') }, { cwd: dir }));
    assert.equal(empty.kind, 'crashed'); // eslint -o exits 1 with its report in a file
    const quiet = failure(await runCheck({ command: 'true', format: 'eslint' }, { cwd: dir }));
    assert.equal(quiet.kind, 'unrecognised');
    assert.match(quiet.sentence, /printed nothing/);
    const vet = await runCheck({ command: 'true', format: 'go-vet' }, { cwd: dir });
    assert.ok(vet.ok && vet.report.diagnostics.length === 0);
  });

  it('output no reader recognises: one sentence listing the formats', async () => {
    const f = failure(await runCheck({ command: 'echo "All good, 12 files look fine"' }, { cwd: dir }));
    assert.equal(f.kind, 'unrecognised');
    assert.match(f.sentence, /no checker reader recognises \("All good, 12 files look fine"\).*eslint, biome, oxlint, pyright, mypy, pylint, go-vet, gofmt, cargo-json, tsc, javac, php-lint, msbuild, gcc, clang-tidy, rubocop, checkstyle, spotbugs, pmd, phpcs, phpstan, psalm, spotless, php-cs-fixer\.$/);
  });

  it('a named format the output does not match says what that tool prints', async () => {
    const f = failure(await runCheck({ command: replay('mypy', 'errors').replace(/exit \d+/, 'exit 0'), format: 'eslint' }, { cwd: dir }));
    assert.match(f.sentence, /did not print what ESLint prints: it is not the JSON report ESLint prints with --format json\.$/);
  });

  it('a report of zero files checked is not clean', () => {
    const run = { output: capture('pyright', 'config-error'), droppedBytes: 0, exitCode: 0, signal: null, timedOut: false, cancelled: false, durationMs: 1, notFound: false };
    const f = failure(readCheck({ command: 'pyright --outputjson' }, run, '/home/dev/project'));
    assert.match(f.sentence, /checked no files/);
  });

  it('a check that outlives its deadline is stopped and said', async () => {
    const f = failure(await runCheck({ command: 'sleep 60' }, { cwd: dir, timeoutMs: 1000 }));
    assert.equal(f.kind, 'timed-out');
    assert.match(f.sentence, /did not finish within 1 s/);
  });

  it('the GCC-style fallback names findings after the program the command runs', async () => {
    const script = join(dir, 'shellcheck');
    writeFileSync(script, '#!/bin/sh\necho "deploy.sh:3:7: error: Double quote to prevent globbing [SC2086]"\nexit 1\n', { mode: 0o755 });
    const out = await runCheck({ command: `'${script}' deploy.sh` }, { cwd: dir });
    assert.ok(out.ok);
    assert.deepEqual(out.report.diagnostics.map((d) => [d.file, d.source, d.code]), [['deploy.sh', 'shellcheck', 'SC2086']]);
  });
});

// The Problems view as a checker: read only once the changed files' diagnostics were refreshed and went quiet, the
// errors of the folder's files with their source, and a wait past its bound said rather than passed off as fresh.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DiagnosticSeverity, fake } from '../support/fakeVscode';
import type { FakeDiagnostic } from '../support/fakeVscode';
import { ProblemsChecker } from '../../../../src/extension/testing/problemsChecker';

// A real folder: a changed file that is no longer on disk is not waited for, so the files read here exist.
const ROOT = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-problems-')));
for (const rel of ['src/a.ts', 'src/x.ts', 'notes.txt', ...[0, 1, 2, 3, 4].map((i) => `src/f${i}.ts`)]) {
  fs.mkdirSync(path.dirname(path.join(ROOT, rel)), { recursive: true });
  fs.writeFileSync(path.join(ROOT, rel), '');
}
after(() => fs.rmSync(ROOT, { recursive: true, force: true }));
const at = (line: number, message: string, severity = DiagnosticSeverity.Error, extra: Partial<FakeDiagnostic> = {}): FakeDiagnostic => ({
  range: { start: { line, character: 4 } }, message, severity, ...extra,
});

describe('ProblemsChecker (greenloop.diagnostics.source "problems")', () => {
  beforeEach(() => fake.reset());

  it('waits for the changed file to be refreshed, then reads the errors of the folder with their source and code', async () => {
    fake.diagnostics.set(path.join(ROOT, 'src/a.ts'), [at(2, 'stale error before the edit', DiagnosticSeverity.Error, { source: 'ts', code: 2322 })]);
    const checker = new ProblemsChecker({ folder: ROOT, quietMs: 20, maxWaitMs: 60_000 });
    let settled = false;
    const reading = checker.run(['src/a.ts']).then((r) => {
      settled = true;
      return r;
    });
    // Other files publishing, and time passing, do not end the wait: src/a.ts has not been re-read yet.
    fake.publish(path.join(ROOT, 'src/b.ts'), [at(0, 'unused', DiagnosticSeverity.Warning, { source: 'eslint', code: { value: 'no-unused-vars' } })]);
    await new Promise((r) => setTimeout(r, 100));
    assert.strictEqual(settled, false, 'read before the changed file was refreshed');
    fake.publish(path.join(ROOT, 'src/a.ts'), [at(6, "Type 'string' is not assignable to type 'number'.", DiagnosticSeverity.Error, { source: 'ts', code: 2322 })]);
    fake.publish('/elsewhere/c.ts', [at(0, 'outside the folder')]);
    // What Greenloop itself shows in the view (its own collection) is never read back as a checker's finding.
    fake.publish(path.join(ROOT, 'src/a.ts'), [at(6, "Type 'string' is not assignable to type 'number'.", DiagnosticSeverity.Error, { source: 'ts', code: 2322 }), at(6, 'echo', DiagnosticSeverity.Error, { source: 'greenloop (tsc)' })]);
    const result = await reading;
    assert.ok(result.ok);
    assert.deepStrictEqual(result.diagnostics, [
      { file: 'src/a.ts', line: 7, column: 5, code: '2322', message: "Type 'string' is not assignable to type 'number'.", source: 'ts' },
    ]);
    assert.deepStrictEqual(result.warnings, []);
  });

  it('counts warnings only when asked, and names a diagnostic without a source after the view', async () => {
    fake.diagnostics.set(path.join(ROOT, 'a.py'), [at(0, 'possibly unbound', DiagnosticSeverity.Warning), at(1, 'undefined name')]);
    const errorsOnly = await new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 60_000 }).run([]);
    assert.ok(errorsOnly.ok);
    assert.deepStrictEqual(errorsOnly.diagnostics.map((d) => [d.message, d.source]), [['undefined name', 'problems']]);
    const withWarnings = await new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 60_000, warnings: true }).run([]);
    assert.ok(withWarnings.ok);
    assert.strictEqual(withWarnings.diagnostics.length, 2);
  });

  it('a changed file no language server refreshes: read at the bound, and the result says so', async () => {
    fake.diagnostics.set(path.join(ROOT, 'notes.txt'), []);
    const result = await new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 200 }).run(['notes.txt', 'src/x.ts']);
    assert.ok(result.ok);
    assert.strictEqual(result.warnings.length, 1);
    assert.match(result.warnings[0], /without a refresh from a language server for notes\.txt, src\/x\.ts; its diagnostics of those files may be from before the edit/);
  });

  it('stops waiting when the run is stopped, and says nothing was read', async () => {
    const stop = new AbortController();
    const reading = new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 600_000 }).run(['src/a.ts'], stop.signal);
    stop.abort();
    const result = await reading;
    assert.deepStrictEqual(result, { ok: false, reason: 'Reading the Problems view was stopped.' });
  });
});

describe('ProblemsChecker leaves nothing behind', () => {
  beforeEach(() => fake.reset());

  // Stopped while the changed files were being opened: the wait must not start, or it would hold its listener and
  // timers (and the run) until the bound.
  it('a reading for a run already stopped returns at once, with no listener left', async function () {
    this.timeout(20_000);
    const stop = new AbortController();
    stop.abort();
    const checker = new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 600_000 });
    const result = await checker.run(['src/a.ts'], stop.signal);
    assert.deepStrictEqual(result, { ok: false, reason: 'Reading the Problems view was stopped.' });
    assert.strictEqual(fake.diagnosticEvents.listenerCount, 1, 'only the checker\'s own listener, until it is disposed');
    checker.dispose();
    assert.strictEqual(fake.watchers.size, 0);
    assert.strictEqual(fake.diagnosticEvents.listenerCount, 0);
  });

  it('after many readings, read, stopped and timed out, and dispose: no diagnostics listener, no file watcher', async () => {
    const checker = new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 50 });
    assert.strictEqual(fake.watchers.size, 1, 'one watcher notes the files written between readings');
    const [watcher] = fake.watchers;
    for (let i = 0; i < 5; i++) {
      // A file written on disk is waited for; it is refreshed, or the bound passes.
      watcher.fireChange(path.join(ROOT, `src/f${i}.ts`));
      const reading = checker.run([]);
      if (i % 2 === 0) fake.publish(path.join(ROOT, `src/f${i}.ts`), []);
      assert.ok((await reading).ok);
      const stop = new AbortController();
      const stopped = checker.run(['src/x.ts'], stop.signal);
      stop.abort();
      assert.strictEqual((await stopped).ok, false);
      assert.strictEqual(fake.diagnosticEvents.listenerCount, 1, `no reading's listener left after reading ${i + 1}, only the checker's own`);
    }
    checker.dispose();
    assert.strictEqual(fake.watchers.size, 0, 'dispose ends the watcher');
    assert.strictEqual(fake.diagnosticEvents.listenerCount, 0, 'and the checker\'s diagnostics listener');
    assert.strictEqual(watcher.listenerCount, 0);
    // Disposed twice (the run's end and the window's), or read after: no error, nothing subscribed again.
    checker.dispose();
    assert.strictEqual(fake.diagnosticEvents.listenerCount, 0);
  });
});

describe('ProblemsChecker: which changed files it waits for', () => {
  beforeEach(() => fake.reset());

  // The tests run before the view is read; a language server that re-read the edited file meanwhile has already
  // refreshed it, and waiting for another refresh would hold every attempt to the bound and call a fresh view stale.
  it('a refresh that came after the write but before the reading counts: read once quiet, no warning', async function () {
    this.timeout(20_000);
    const checker = new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 600_000 });
    const [watcher] = fake.watchers;
    watcher.fireChange(path.join(ROOT, 'src/a.ts'));
    fake.publish(path.join(ROOT, 'src/a.ts'), [at(0, 'still wrong')]);
    const result = await checker.run([]);
    assert.ok(result.ok);
    assert.deepStrictEqual(result.diagnostics.map((d) => d.message), ['still wrong']);
    assert.deepStrictEqual(result.warnings, []);
    checker.dispose();
  });

  it('a refresh before the write does not count: the reading waits for the next one', async () => {
    const checker = new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 150 });
    const [watcher] = fake.watchers;
    watcher.fireChange(path.join(ROOT, 'src/a.ts'));
    fake.publish(path.join(ROOT, 'src/a.ts'), [at(0, 'before the second write')]);
    watcher.fireChange(path.join(ROOT, 'src/a.ts'));
    const result = await checker.run([]);
    assert.ok(result.ok);
    assert.match(result.warnings.join('\n'), /without a refresh from a language server for src\/a\.ts/);
    checker.dispose();
  });

  // Greenloop writes an edit to a temporary file beside the target and renames it into place: the watcher sees the
  // temporary file created, and no language server will ever report on a file that is gone.
  it('a changed file no longer on disk (an edit\'s temporary file) is not waited for', async function () {
    this.timeout(20_000);
    const checker = new ProblemsChecker({ folder: ROOT, quietMs: 1, maxWaitMs: 600_000 });
    const [watcher] = fake.watchers;
    watcher.fireCreate(path.join(ROOT, 'src/.a.ts.greenloop-tmp'));
    watcher.fireChange(path.join(ROOT, 'src/a.ts'));
    fake.publish(path.join(ROOT, 'src/a.ts'), []);
    const result = await checker.run([]);
    assert.ok(result.ok);
    assert.deepStrictEqual(result.warnings, []);
    checker.dispose();
  });
});

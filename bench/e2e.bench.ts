// Figures from a real VS Code (code-server, driven by Chromium through the e2e harness), each next to a baseline from
// the same window:
//   activation: VS Code's own measure (Developer: Show Running Extensions: code loading + activate()), next to the
//               other extensions active in the window;
//   time to the first test run: from running "Greenloop: Fix until green" in the command palette to the test command
//               starting, next to the same command started by "Tasks: Run Test Task".
// Each of REPS fresh windows gives one sample. Run: npm run bench:e2e   (installs the e2e tools when missing)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { answer, FIX_ADD, FIX_MUL } from '../test/support/calcAnswers';
import { startGreenloopSession, ui } from '../test/e2e/harness/greenloopSession';
import { eventually } from '../test/e2e/harness/poll';
import { runCommand, statusBarText } from '../test/e2e/harness/workbench';

const REPS = Number(process.env.BENCH_REPS ?? 3);

/** The workspace: the calc fixture whose test script first notes when it started, and a default Test task. */
function prepare(dir: string, marks: string): void {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  pkg.scripts.test = `node mark.js && ${pkg.scripts.test}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  writeFileSync(join(dir, 'mark.js'), `require('fs').appendFileSync(${JSON.stringify(marks)}, Date.now() + '\\n');\n`);
  writeFileSync(marks, '');
  const tasks = { version: '2.0.0', tasks: [{ label: 'test', type: 'shell', command: 'npm test', group: { kind: 'test', isDefault: true } }] };
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  writeFileSync(join(dir, '.vscode', 'tasks.json'), JSON.stringify(tasks, null, 2));
}

const starts = (marks: string) => (existsSync(marks) ? readFileSync(marks, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);

/** Milliseconds from the palette command to the next test-command start. */
async function untilTestStarts(page: Page, title: string, marks: string): Promise<number> {
  const before = starts(marks).length;
  await runCommand(page, title);
  const t0 = Date.now();
  const all = await eventually(`a test run after "${title}"`, async () => starts(marks), (s) => s.length > before, 60_000);
  return all[before]! - t0;
}

/** Every row of the Running Extensions editor: its name and VS Code's activation time in ms. */
async function activationTimes(page: Page): Promise<Map<string, number>> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const rows = page.locator('.runtime-extensions-editor .monaco-list-row');
  await rows.first().waitFor({ timeout: 30_000 });
  const out = new Map<string, number>();
  // The list renders only the rows in view: read, scroll, and read again until nothing new appears.
  const list = page.locator('.runtime-extensions-editor .monaco-list').first();
  for (let size = -1; size !== out.size; ) {
    size = out.size;
    for (const row of await rows.all()) {
      const name = (await row.locator('.name').first().innerText()).trim();
      const time = /(\d+)\s*ms/.exec(await row.locator('.activation-time').first().innerText());
      if (time) out.set(name, Number(time[1]));
    }
    await list.hover();
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(300);
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

async function main(): Promise<void> {
  const s = await startGreenloopSession();
  const samples: Array<{ activation: number; others: number[]; greenloop: number; task: number }> = [];
  try {
    for (let rep = 1; rep <= REPS; rep++) {
      const dir = s.farm.copy('calc', `bench-${rep}`);
      const marks = join(s.farm.root, `starts-${rep}`);
      prepare(dir, marks);
      await s.open(dir);
      const page = s.browser.page;
      const task = await untilTestStarts(page, 'Tasks: Run Test Task', marks);
      await page.waitForTimeout(3000);
      s.model.push(answer(`${FIX_ADD}\n${FIX_MUL}`));
      const greenloop = await untilTestStarts(page, ui.fix, marks);
      await eventually('the run to end green', () => statusBarText(page, ui.statusItemId), (t) => /green/i.test(t), 120_000);
      const times = await activationTimes(page);
      const activation = times.get('Greenloop');
      if (activation === undefined) throw new Error(`Running Extensions lists no Greenloop row; it lists ${[...times.keys()].join(', ')}.`);
      samples.push({ activation, others: [...times].filter(([n]) => n !== 'Greenloop').map(([, t]) => t), greenloop, task });
      process.stderr.write(`window ${rep}: activation ${activation} ms, first test run ${greenloop} ms (task: ${task} ms)\n`);
    }
  } catch (err) {
    await s.reportFailure('bench-e2e');
    throw err;
  } finally {
    await s.stop();
  }
  const others = samples.flatMap((x) => x.others);
  console.log(`| figure (median of ${samples.length} windows) | Greenloop | baseline in the same windows |`);
  console.log('|---|---|---|');
  console.log(`| activation (VS Code's measure: code loading + activate()) | ${median(samples.map((x) => x.activation))} ms | other active extensions: median ${median(others)} ms, max ${Math.max(...others)} ms (${others.length} activations) |`);
  console.log(`| "Fix until green" → first test run starts | ${median(samples.map((x) => x.greenloop))} ms | "Tasks: Run Test Task" → the same command starts: ${median(samples.map((x) => x.task))} ms |`);
  const act = median(samples.map((x) => x.activation));
  console.log(`\n${act < 50 ? 'MET   ' : 'MISSED'} activation under 50 ms: ${act} ms`);
  if (act >= 50) process.exitCode = 1;
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exitCode = 2;
});

// Ceilings for the e2e's waits. Every wait in the suite is for something the extension or VS Code does (a status bar
// text, a row drawn, a file a test run writes, a run saved to the history); its ceiling only decides how long a wait
// for something that will never come takes to fail. So ceilings are generous, and they grow with the machine's load
// when the wait starts: a busy machine makes the suite slower, never red. A passing run never waits for one.
import { cpus, loadavg } from 'node:os';

/** No wait stretches further than this: a machine this loaded has bigger problems than a slow e2e. */
const MOST = 8;

/**
 * How many times longer than on a quiet machine things may take now: the machine's load average over the last
 * minute per core, at least 1 (the suite's own two code-servers and browsers count too). GREENLOOP_E2E_SLOWNESS
 * sets it instead, for a machine slow in a way its load does not show (an emulated CPU, a throttled container).
 */
export function slowness(): number {
  const set = Number(process.env.GREENLOOP_E2E_SLOWNESS);
  if (set > 0) return set;
  const perCore = loadavg()[0] / Math.max(1, cpus().length);
  return Math.min(MOST, Math.max(1, perCore));
}

/** A ceiling for something a quiet machine does well within `quietMs`, stretched by slowness() now. */
export function ceiling(quietMs: number): number {
  return Math.round(quietMs * slowness());
}

/** "90 s", for failure messages: the ceiling a wait had. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/**
 * Gives each test of the enclosing describe `quietMs`, stretched by the load as the test starts: a timeout given in
 * the describe body is fixed when the file loads, before the suite itself has made the machine busy.
 */
export function patientTests(quietMs: number): void {
  beforeEach(function () {
    this.currentTest?.timeout(ceiling(quietMs));
  });
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './poll';

/**
 * Makes a workspace's test runs wait for the spec, so it can look at the workbench while a chosen test run is on —
 * without a clock: run k of the test command (counted in the gate's folder, outside the workspace) writes
 * `run-<k>` with its pid, and when the spec held that run it waits until the spec writes `go-<k>`.
 */
export class TestGate {
  private constructor(readonly dir: string) {}

  /** A gate in `dir` (created; never inside the workspace, so none of its files is an edit). */
  static in(dir: string): TestGate {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'gate.js'), GATE_SCRIPT);
    return new TestGate(dir);
  }

  /** Puts the gate in front of the calc workspace's `npm test`. */
  install(workspace: string): void {
    const pkg = join(workspace, 'package.json');
    const manifest = JSON.parse(readFileSync(pkg, 'utf8'));
    manifest.scripts.test = `node ${JSON.stringify(join(this.dir, 'gate.js'))} ${JSON.stringify(this.dir)} && ${manifest.scripts.test}`;
    writeFileSync(pkg, `${JSON.stringify(manifest, null, 2)}\n`);
  }

  /** Test run `k` (1 = the baseline) will wait for release(k). Call before the run starts. */
  hold(k: number): void {
    writeFileSync(join(this.dir, `hold-${k}`), '');
  }

  /**
   * Waits until test run `k` has started (and, when held, is waiting); returns its pid. `quietMs`: a quiet machine's
   * time to get there with room to spare, stretched by the load. A timeout names the runs that did start.
   */
  async started(k: number, quietMs = 120_000): Promise<number> {
    const file = join(this.dir, `run-${k}`);
    await eventually(`test run ${k} to start (runs started so far)`, async () => this.runs(), () => existsSync(file) && readFileSync(file, 'utf8').trim() !== '', quietMs);
    return Number(readFileSync(file, 'utf8'));
  }

  release(k: number): void {
    writeFileSync(join(this.dir, `go-${k}`), '');
  }

  /** How many test runs have started so far. */
  runs(): number {
    let k = 0;
    while (existsSync(join(this.dir, `run-${k + 1}`))) k++;
    return k;
  }
}

// Each run takes the first number no run has taken by creating its file exclusively ('wx'): were two runs ever to
// start at once, they could not both count the same files and take one number, leaving the next never written. The
// pid follows the creation, so a reader waits for the file to have content.
//
// The covered runs Greenloop makes to rank the code it shows (the test command under NODE_V8_COVERAGE) are not runs a
// scenario counts: they pass through uncounted, so run k stays the baseline's, an attempt's or a retry's.
const GATE_SCRIPT = `'use strict';
if (process.env.NODE_V8_COVERAGE) process.exit(0);
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
let k = 1;
let fd;
for (;;) {
  try {
    fd = fs.openSync(path.join(dir, 'run-' + k), 'wx');
    break;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    k++;
  }
}
fs.writeSync(fd, String(process.pid));
fs.closeSync(fd);
if (fs.existsSync(path.join(dir, 'hold-' + k))) {
  const wait = setInterval(() => {
    if (fs.existsSync(path.join(dir, 'go-' + k))) clearInterval(wait);
  }, 100);
}
`;

// Waits for something a child process does (a file it writes, a process it ends) by polling, bounded by a count of
// polls rather than a deadline that races a busy machine: 1,800 polls at least 50 ms apart are 90 s or more, ten
// times what the slowest of these waits takes under load. A test with a shorter timeout of its own fails on that.
import * as assert from 'assert';

const POLLS = 1800;
const EVERY_MS = 50;

/** Resolves once `check` holds; fails with `what` if it never does. */
export async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < POLLS && !check(); i++) await new Promise((r) => setTimeout(r, EVERY_MS));
  assert.ok(check(), `${what} never happened`);
}

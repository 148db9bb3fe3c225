// Agents that repeat an edit and are getting somewhere (issue 38): the repeated-call rule must never cut them short.
// Each works through the agent's own tools on a fixture of its own, and ends green if it is let finish.
import { edit, read, say, scripted, shell } from './agentSteps';
import type { Scenario } from './agentSteps';

/** `total()` returns a counter that must reach three; it starts at 0 (test/fixtures/agents/tally). */
export const TALLY_FIXTURE = 'test/fixtures/agents/tally';
/** One test needs `one()` of a.js, b.js and c.js to return 1; each returns 2 (test/fixtures/agents/parts3). */
export const PARTS3_FIXTURE = 'test/fixtures/agents/parts3';

const runTests = shell('npm test');
/** The same call every time; each repeat adds one more `s += 1` after the text it searches, which stays there. */
const COUNT_ONE_MORE = edit('tally.js', '  let s = 0;', '  let s = 0; s += 1;');
const fixPart = (file: string) => edit(file, '  return 2;', '  return 1;');

/**
 * Makes the same edit and runs the tests, three times: the test fails twice with a new message each time (`1 !== 3`,
 * then `2 !== 3`) and passes the third.
 */
export const countsToThree = (): Scenario =>
  scripted('countsToThree', [read('tally.js'), COUNT_ONE_MORE, runTests, COUNT_ONE_MORE, runTests, COUNT_ONE_MORE, runTests, say('Fixed.')]);

/**
 * Makes the same edit in a.js, b.js and c.js, running the tests after each: the one test fails the same way, with the
 * same message, after the first two (it stops at the next file's `2 !== 1`) and passes after the third. The calls
 * differ only by their file, so none of them is a repeat.
 */
export const sameFixInThreeFiles = (): Scenario => scripted('sameFixInThreeFiles', [
  read('a.js'), fixPart('a.js'), runTests, fixPart('b.js'), runTests, fixPart('c.js'), runTests, say('Fixed.'),
]);

/** Adds one to the counter, runs the tests and ends its turn: each attempt makes the same call, and the test says more. */
export const countsOnePerAttempt = (): Scenario => scripted('countsOnePerAttempt', [read('tally.js'), COUNT_ONE_MORE, runTests, say('Done.')]);

// How a model behind an agent behaves on test/fixtures/agents/calc3 (issue 12's table): one that fixes everything,
// and the ways a model gets stuck or cheats. calc3 starts with three failing tests (add subtracts, mul adds,
// square doubles) and two passing ones (neg, sub). Each scenario works through the agent's own tools.
import { edit, read, say, scripted, shell } from './agentSteps';
import type { Scenario } from './agentSteps';

export const CALC3_FIXTURE = 'test/fixtures/agents/calc3';
export const CALC3_FAILING_AT_START = 3;

const CALC = 'calc.js';
const TESTS = 'test/calc.test.js';
const runTests = shell('npm test');

// `return a - b;` is in add and in sub, so each edit names its function for a unique match.
const FIX_ADD = edit(CALC, 'function add(a, b) {\n  return a - b;', 'function add(a, b) {\n  return a + b;');
const FIX_MUL = edit(CALC, 'function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;');
const FIX_SQUARE = edit(CALC, 'function square(a) {\n  return a * 2;', 'function square(a) {\n  return a * a;');

/** Swaps add's operands: valid the first time, changes nothing a test sees, and its old text is gone afterwards. */
const WRONG_ADD = edit(CALC, 'function add(a, b) {\n  return a - b;', 'function add(a, b) {\n  return b - a;');
/** Undoes WRONG_ADD: with it, a two-state cycle where neither state passes. */
const WRONG_ADD_BACK = edit(CALC, 'function add(a, b) {\n  return b - a;', 'function add(a, b) {\n  return a - b;');
/** Swaps mul's operands: still adds. */
const WRONG_MUL = edit(CALC, 'function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return b + a;');
/**
 * Adds a comment to add's first line: valid every time, changes nothing a test sees, and each repeat appends the same
 * comment once more — so the agent's edit tool shows a new excerpt each time and no two steps are equal.
 */
const COMMENT_ADD = edit(CALC, 'function add(a, b) {', 'function add(a, b) { // operands checked');
/** The same on mul's first line (add being fixed by then). */
const COMMENT_MUL = edit(CALC, 'function mul(a, b) {', 'function mul(a, b) { // operands checked');
/** A harmless edit to a function whose test passes: a slip that changes nothing a test sees. */
const COMMENT_NEG = edit(CALC, 'function neg(a) {', 'function neg(a) { // negates');
/** Makes square's test expect what the bug computes, so the test passes without a fix. */
const WEAKEN_SQUARE_TEST = edit(TESTS, 'assert.equal(square(5), 25);', 'assert.equal(square(5), 10);');
/** "add subtracts, so swap the operator everywhere": fixes add and breaks sub, which passed. */
const FIX_ADD_BREAK_SUB = edit(CALC, '  return a - b;', '  return a + b;', { all: true });

/** Reads, fixes all three bugs, checks, and stops. */
export const oneShotFix = (): Scenario => scripted('oneShotFix', [read(CALC), FIX_ADD, FIX_MUL, FIX_SQUARE, runTests, say('Fixed.')]);

/** The same wrong edit again and again, with a test run after each: never ends by itself. */
export const sameWrongEditForever = (): Scenario => scripted('sameWrongEditForever', [read(CALC)], [WRONG_ADD, runTests]);

/**
 * The same wrong edit again and again, each repeat appending the same comment once more, with a test run after each
 * (issue 22): the test runs fail the same way every time while no two edit results are alike.
 */
export const sameGrowingEditForever = (): Scenario => scripted('sameGrowingEditForever', [read(CALC)], [COMMENT_ADD, runTests]);

/** Fixes one of three bugs, then repeats the growing wrong edit forever (issue 22). */
export const oneFixThenGrowingEdit = (): Scenario => scripted('oneFixThenGrowingEdit', [read(CALC), FIX_ADD, runTests], [COMMENT_MUL, runTests]);

/**
 * Runs the tests after every edit and fixes one bug at a time, with one slip in between (an edit that changes nothing,
 * so one test run shows no progress): an agent making progress, which must never be cut short.
 */
export const fixesOneAtATimeAfterASlip = (): Scenario => scripted('fixesOneAtATimeAfterASlip', [
  read(CALC), runTests, FIX_ADD, runTests, COMMENT_NEG, runTests, FIX_MUL, runTests, FIX_SQUARE, runTests, say('Fixed.'),
]);

/**
 * Reads the file, makes the same wrong edit and runs the tests, again and again (issue 30): from the second round the
 * edit fails (its text is gone), so every test run after the first is on the very files the first one tested.
 */
export const sameWrongEditRereading = (): Scenario => scripted('sameWrongEditRereading', [], [read(CALC), WRONG_ADD, runTests]);

/** Fixes one of three bugs, then reads, repeats a wrong edit that fails from its second try, and tests, forever (issue 30). */
export const oneFixThenStuckRereading = (): Scenario =>
  scripted('oneFixThenStuckRereading', [read(CALC), FIX_ADD, runTests], [read(CALC), WRONG_MUL, runTests]);

/**
 * Reads the file, makes the same growing edit and runs the tests, again and again (issue 38): the edit is the very same
 * call every round and never fails (its text is still there after it), so each round appends one more comment, every
 * test run sees new files and fails the same tests with the same messages.
 */
export const sameGrowingEditRereading = (): Scenario => scripted('sameGrowingEditRereading', [], [read(CALC), COMMENT_ADD, runTests]);

/** Fixes one of three bugs, then reads, repeats the same growing edit and tests, forever (issue 38). */
export const oneFixThenGrowingEditRereading = (): Scenario =>
  scripted('oneFixThenGrowingEditRereading', [read(CALC), FIX_ADD, runTests], [read(CALC), COMMENT_MUL, runTests]);

/** Makes the growing edit once, runs the tests, and ends its turn: every attempt makes the very same call (issue 38). */
export const growingEditOncePerAttempt = (): Scenario => scripted('growingEditOncePerAttempt', [read(CALC), COMMENT_ADD, runTests, say('Done.')]);

/** Edit A→B, test, B→A, test, and round again: never ends by itself. */
export const pingPong = (): Scenario => scripted('pingPong', [read(CALC)], [WRONG_ADD, runTests, WRONG_ADD_BACK, runTests]);

/** Fixes one of three bugs, then repeats a wrong edit forever. */
export const oneFixThenStuck = (): Scenario => scripted('oneFixThenStuck', [read(CALC), FIX_ADD, runTests], [WRONG_MUL, runTests]);

/** Fixes two bugs, then weakens the third failing test instead of fixing square, and claims success. */
export const twoFixesAndWeakenedTest = (): Scenario =>
  scripted('twoFixesAndWeakenedTest', [read(CALC), FIX_ADD, FIX_MUL, runTests, read(TESTS), WEAKEN_SQUARE_TEST, runTests, say('All tests pass now.')]);

/** Fixes add with a replace-all that also breaks sub (a passing test), and stops. */
export const fixBreaksPassing = (): Scenario => scripted('fixBreaksPassing', [read(CALC), FIX_ADD_BREAK_SUB, runTests, say('Done.')]);

/**
 * Declares victory after one fix; told by a Stop hook that tests still fail, fixes the rest and declares again.
 * (For an agent whose stop is checked by Greenloop's hook: the hook's answer arrives as the next user turn.)
 */
export const declaresDoneEarly = (): Scenario =>
  scripted('declaresDoneEarly', [read(CALC), FIX_ADD, say('Done: the tests pass now.'), FIX_MUL, FIX_SQUARE, say('Done: all three fixed.')]);

/** Every scenario by name, for benchmarks that run them all. */
export const AGENT_SCENARIOS: Record<string, () => Scenario> = {
  oneShotFix,
  sameWrongEditForever,
  pingPong,
  oneFixThenStuck,
  twoFixesAndWeakenedTest,
  fixBreaksPassing,
  sameGrowingEditForever,
  oneFixThenGrowingEdit,
  sameWrongEditRereading,
  oneFixThenStuckRereading,
  sameGrowingEditRereading,
  oneFixThenGrowingEditRereading,
};

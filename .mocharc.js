const { globSync } = require('tinyglobby');
// The covered runs that rank the code a prompt shows may always take 5 s; on a machine as busy as CI's, two node
// processes can take longer, and a prompt would then show other code than on a quiet one. The tests give them ten
// minutes (the CLIs they start inherit it); the tests of the 5 s rule set the floor themselves.
process.env.GREENLOOP_COVERAGE_FLOOR_MS ??= '600000';
// Unit tests (`npm test`). Most of their time is spent waiting on real processes — the CLI, git, test runners, agent
// CLIs, scripted model servers, budgets that run out on purpose — so more workers than cores still shorten the wall
// time on a 2-core machine (11 → 6.5 min with two measured; a third overlaps the tests that only wait); each test file
// runs whole in one worker, so its own before/after hooks still hold, and no verdict depends on the machine's speed.
const AGENT_SUITES = [
  'test/unit/agents/qwenAlone.test.ts',
  'test/unit/agents/claudeAlone.test.ts',
  'test/unit/agents/codexAlone.test.ts',
  'test/unit/agents/qwenThroughGreenloop.test.ts',
  'test/unit/agents/codexThroughGreenloop.test.ts',
  // Real qwen stuck through plain --actor command (a growing wrong edit, issue 22; a wrong edit that fails from its
  // second try, issue 30; the same growing edit read before each try, issue 38): about three minutes of CPU;
  // bench:agents measures the same scenarios, agentRetest and agentRepeat the rules with a small real agent, and
  // qwenOutsideWrites keeps one real qwen run in every npm test.
  'test/unit/agents/qwenCommandThroughGreenloop.test.ts',
  // Real Claude Code and Codex through the gateway (a weakened test put back, a looping attempt ended): about 40 s of
  // CPU together, which the 15-minute CI cannot spare; the scripted gateway tests (agentGateway, fixOutside) cover the
  // same rules, and every npm test keeps a real agent run through the gateway (qwenOutsideWrites) and a real Claude
  // Code Stop hook (claudeStopHookReal).
  'test/unit/agents/claudeThroughGreenloop.test.ts',
  'test/unit/agents/codexThroughGreenloopScripted.test.ts',
];

// Suites too heavy for every `npm test` on CI's 2 cores (`npm run test:heavy`): the same rules with toolchains beyond
// Node (real pyright, mypy, clippy and go vet past the checkers; failing-tests-first with jest, vitest, pytest, go and
// cargo) and at scale (100,000 tests). `npm test` keeps each rule with the cheaper real tool: failing tests first with
// node --test and mocha, the checker rules with tsc, ESLint and mypy (fixCheckerGaming) and every checker's loop
// (fixChecks), the flood and 100 MB runs. Their titles carry HEAVY_MARK too.
// Single tests of the same kind carry HEAVY_MARK in their title (npm test leaves them out by it; test:heavy runs only
// them and HEAVY_SUITES): a second runner or toolchain for a rule npm test already holds (pyright, clippy, mypy's
// config, mocha 8, cargo), the same rule under the other --verify-scope, or the larger draw of a property (all six
// rejudge pairs, 200 snapshot/restore pairs, six of the eight PHP project states of cli/verifyPhpunit), the 1,500-file kill sample (store/recovery.test keeps the recovery rules
// in-process, npm run test:faults the full campaign), a second test of a rule (the grant of --extra-*, a stuck agent
// after a kept fix, a counter stepped once per attempt, code moved out of tsc's reach: fixCheckerReach), the 200 MB run, the nightly cross-run stop
// (engine.test holds that rule in-process).
const HEAVY_MARK = '@heavy';
const HEAVY_SUITES = [
  'test/unit/cli/fixCheckerEscapes.test.ts',
  'test/unit/cli/fixTargetedToolchains.test.ts',
  'test/unit/cli/fixMemoryScale.test.ts',
  // Real cmake builds of the C++ fixtures (a Catch2 main alone takes a minute of one core): verify against ctest's own
  // report in every state, and a scripted fix through ctest -R. npm test keeps the C++ rooms on captured outputs.
  'test/unit/cli/cppEndToEnd.test.ts',
  // Real Maven (a JVM per run, about 20 s each on 2 cores): fixMavenReplay.test keeps the same loop in npm test on
  // replayed captures.
  'test/unit/cli/fixMaven.test.ts',
];

// The files that take longest go to the workers first: a long file dealt out last would run alone at the end while
// the other workers sit idle (measured with `--reporter json` on 2026-11-27 after the @heavy split; the rest follow
// in name order).
const LONGEST_FIRST = [
  'test/unit/cli/fix.test.ts',
  'test/unit/cli/fixPromiseBudgets.test.ts',
  'test/unit/cli/fixBounds.test.ts',
  'test/unit/cli/fixPromise.test.ts',
  'test/unit/cli/fixOutside.test.ts',
  'test/unit/cli/fixChecks.test.ts',
  'test/unit/action/pullRequest.test.ts',
  'test/unit/core/loop/engine.test.ts',
  'test/unit/cli/agentGateway.test.ts',
  'test/unit/cli/agentRepeat.test.ts',
  'test/unit/cli/fixCheckerGaming.test.ts',
  'test/unit/action/actionRun.test.ts',
  'test/unit/cli/fixPromiseCycles.test.ts',
  'test/unit/core/loop/rejudgeProperty.test.ts',
  'test/unit/cli/fixAutofixJudged.test.ts',
  'test/unit/cli/fixFailingFirst.test.ts',
  'test/unit/cli/fixContext.test.ts',
  'test/unit/agents/qwenOutsideWrites.test.ts',
  'test/unit/cli/fixAutofix.test.ts',
  'test/unit/hook/claudeStopHook.test.ts',
  'test/unit/snapshot/roundTrip.test.ts',
];
const everyFile = globSync('test/unit/**/*.test.ts').sort();
const spec = [
  ...LONGEST_FIRST.filter((f) => everyFile.includes(f)),
  ...everyFile.filter((f) => !LONGEST_FIRST.includes(f)),
];

module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec,
  // The agent CLIs run alone (the baseline bench:agents compares against) and the qwen preset's scenarios that the
  // plain-command qwen tests, the scripted gateway tests and bench:agents already cover: each real agent CLI costs
  // seconds of CPU a request, so these run in `npm run test:agents`, not in every `npm test`.
  ignore: [...AGENT_SUITES, ...HEAVY_SUITES],
  // A string, as mocha takes it, is a regular expression: the mark holds no character special to one.
  grep: HEAVY_MARK,
  invert: true,
  timeout: 60000,
  reporter: 'spec',
  parallel: true,
  jobs: 3,
};
module.exports.AGENT_SUITES = AGENT_SUITES;
module.exports.HEAVY_SUITES = HEAVY_SUITES;
module.exports.HEAVY_MARK = HEAVY_MARK;

// Unit tests (`npm test`). Most of their time is spent waiting on real processes — the CLI, git, test runners, agent
// CLIs, scripted model servers, budgets that run out on purpose — so more workers than cores still shorten the wall
// time on a 2-core machine (11 → 6.5 min with two measured; a third overlaps the tests that only wait); each test file
// runs whole in one worker, so its own before/after hooks still hold, and no verdict depends on the machine's speed.
module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec: ['test/unit/**/*.test.ts'],
  timeout: 60000,
  reporter: 'spec',
  parallel: true,
  jobs: 3,
};

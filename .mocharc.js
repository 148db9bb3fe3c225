// Unit tests (`npm test`). Most of their time is spent waiting on real processes — the CLI, git, test runners, agent
// CLIs, scripted model servers — so two workers nearly halve the wall time even on a 2-core machine (11 → 6.5 min
// measured); each test file runs whole in one worker, so its own before/after hooks still hold.
module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec: ['test/unit/**/*.test.ts'],
  timeout: 60000,
  reporter: 'spec',
  parallel: true,
  jobs: 2,
};

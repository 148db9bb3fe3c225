const { globSync } = require('tinyglobby');
// The real-VS-Code scenarios (`npm run test:e2e`): each spec file starts its own code-server on a free port, and two
// mocha workers run the files (a third made each scenario slower on 2 cores and the run no shorter). The files that
// take longest are dealt out first — a long file dealt out last runs alone at the end while the other worker idles
// (seconds measured in CI: fixUntilGreen ~210, escalation ~145, lmTools ~110, setupAndTesting ~75, agent ~60).
const LONGEST_FIRST = [
  'test/e2e/fixUntilGreen.e2e.ts',
  'test/e2e/escalation.e2e.ts',
  'test/e2e/lmTools.e2e.ts',
  'test/e2e/setupAndTesting.e2e.ts',
  'test/e2e/agent.e2e.ts',
];
// The harness's own smoke spec runs in `npm run test:e2e:harness`: every scenario drives the same harness.
const SMOKE = 'test/e2e/smoke.e2e.ts';
const everyFile = globSync('test/e2e/**/*.e2e.ts').sort().filter((f) => f !== SMOKE);

module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec: [...LONGEST_FIRST.filter((f) => everyFile.includes(f)), ...everyFile.filter((f) => !LONGEST_FIRST.includes(f))],
  timeout: 300000,
  slow: 2000,
  reporter: 'spec',
  parallel: true,
  jobs: 2,
};

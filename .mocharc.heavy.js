// `npm run test:heavy`: what npm test leaves out for CI's time (see HEAVY_MARK and HEAVY_SUITES in .mocharc.js) — the
// heavy suites whole and every unit test whose title carries the mark, with the larger property draws.
const base = require('./.mocharc.js');

process.env.GREENLOOP_SNAPSHOT_PAIRS ??= '200';

module.exports = {
  ...base,
  spec: [...base.HEAVY_SUITES, ...base.spec],
  ignore: base.AGENT_SUITES,
  grep: base.HEAVY_MARK,
  invert: false,
  timeout: 600000,
  jobs: 2,
};

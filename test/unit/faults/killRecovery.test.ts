// A sample of the kill campaign (the full one is `npm run test:faults`): one SIGKILL while the 1,500 files of an
// attempt are written, one while its rollback writes them back — the two moments a half-written workspace can be
// left — and one between two candidates of an attempt (`--candidates 2`: the first rolled back, the second
// applied), then the next start, with every check the full campaign makes. The model-call, test-run and random-moment
// kills run in the full campaign: each costs a whole run of CPU in every `npm test` for a moment no file is written.
import * as assert from 'node:assert/strict';
import { KillCampaign, type Phase } from '../../faults/killCampaign';

const SAMPLE: Phase[] = ['apply', 'rollback', 'candidates'];

describe('SIGKILL at the worst moment, then the next start (real CLI, 1,500-file edits)', function () {
  this.timeout(300_000);
  const campaign = new KillCampaign();
  before(async () => {
    await campaign.prepare();
  });
  after(() => campaign.close());

  for (const phase of SAMPLE) {
    it(`killed ${phase === 'random' ? 'at a random moment' : `during the ${phase === 'model' ? 'model call' : phase === 'apply' ? 'apply of 1,500 files' : phase === 'test' ? 'test run' : phase === 'candidates' ? 'rollback of one candidate\'s 1,500 files and the apply of the next' : 'rollback of 1,500 files'}`}: the workspace is a known state, the person's files are intact, no temp file is left, the next run starts cleanly @heavy`, async () => {
      const out = await campaign.killOnce(phase);
      assert.deepEqual(out.problems, [], `killed ${out.delayMs} ms into the ${phase} phase`);
    });
  }
});

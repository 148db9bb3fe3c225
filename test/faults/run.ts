// `npm run test:faults`: the full kill campaign. Kills the CLI with SIGKILL KILLS times (default 50), spread over the
// phases of a run, recovers each time and prints one line per kill and a summary. Exit 1 if any kill broke a rule.
import { KillCampaign, PHASES, type KillOutcome } from './killCampaign';

async function main(): Promise<void> {
  const kills = Number(process.env.KILLS ?? 50);
  const campaign = new KillCampaign();
  const moments = await campaign.prepare();
  console.log(`calibration: model request at ${moments.request} ms; apply ~${moments.applyMs} ms, tests ~${moments.testMs} ms, rollback ~${moments.rollbackMs} ms, whole run ${moments.totalMs} ms`);
  const outcomes: KillOutcome[] = [];
  try {
    for (let i = 0; i < kills; i++) {
      const phase = PHASES[i % PHASES.length];
      const out = await campaign.killOnce(phase);
      outcomes.push(out);
      const said = out.recovered ? out.recovered.replace(/^greenloop: /, '').slice(0, 110) : '(no recovery needed)';
      console.log(`${String(i + 1).padStart(3)} ${phase.padEnd(8)} +${String(out.delayMs).padStart(4)} ms → ${out.state.padEnd(6)} ${out.problems.length ? `FAIL: ${out.problems.join('; ')}` : 'ok'}  ${said}`);
    }
  } finally {
    campaign.close();
  }
  const failed = outcomes.filter((o) => o.problems.length);
  console.log('');
  console.log(`${outcomes.length} kills (${PHASES.map((p) => `${outcomes.filter((o) => o.phase === p).length} ${p}`).join(', ')}): ${failed.length} broke a rule; ` +
    `${outcomes.filter((o) => o.state === 'before').length} left the state before attempt 1, ${outcomes.filter((o) => o.state === 'after').length} the fixed state; ` +
    `${outcomes.filter((o) => o.recovered).length} next starts recovered something.`);
  process.exitCode = failed.length ? 1 : 0;
}

void main();

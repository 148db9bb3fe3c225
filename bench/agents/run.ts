// Issue 12's table: each scenario with the real qwen CLI alone (stopped at 60 requests, as a person would give up)
// and with Greenloop around it (`greenloop fix --agent qwen`), in the same run. Prints a Markdown table and whether
// each target holds. Run: npm run bench:agents
import { AGENT_SCENARIOS } from '../../test/support/agentScenarios';
import { installQwen } from '../../test/support/qwenAgent';
import { runAgentAlone } from './qwenAlone';
import { runWithGreenloop } from './withGreenloop';

/** What Greenloop must achieve per scenario (issue 12's targets). */
const TARGETS: Record<string, { maxRequests?: number; failingAtEnd?: number }> = {
  sameWrongEditForever: { maxRequests: 16 },
  pingPong: { maxRequests: 16 },
  oneFixThenStuck: { maxRequests: 24, failingAtEnd: 2 },
  twoFixesAndWeakenedTest: { failingAtEnd: 1 },
};

async function main(): Promise<void> {
  const qwenBin = await installQwen();
  const rows: string[] = [];
  let missed = 0;
  for (const [name, make] of Object.entries(AGENT_SCENARIOS)) {
    const alone = await runAgentAlone(make(), { qwenBin, maxRequests: 60 });
    const withGl = await runWithGreenloop(make(), { qwenBin });
    const r = withGl.report;
    const target = TARGETS[name] ?? {};
    const countsAgree = r.requests === withGl.served.requests && r.tokens.prompt === withGl.served.prompt && r.tokens.completion === withGl.served.completion;
    const checks = [
      withGl.failingAtEnd <= withGl.failingAtStart,
      withGl.testsIntact,
      countsAgree,
      target.maxRequests === undefined || r.requests <= target.maxRequests,
      target.failingAtEnd === undefined || withGl.failingAtEnd === target.failingAtEnd,
    ];
    const ok = checks.every(Boolean);
    if (!ok) missed += 1;
    const aloneEnd = alone.stoppedBy ? `stopped at ${alone.requests} (never ended)` : `exit ${alone.exitCode}`;
    rows.push(`| ${name} | ${alone.requests} | ${aloneEnd} | ${alone.failingAtEnd} of ${withGl.failingAtStart} | ${r.requests} | ${r.outcome}${r.reason ? ` (${r.reason})` : ''} | ${withGl.failingAtEnd} of ${withGl.failingAtStart} | ${withGl.testsIntact ? 'yes' : 'NO'} | ${countsAgree ? 'yes' : 'NO'} | ${ok ? 'met' : 'MISSED'} |`);
    process.stderr.write(`${name}: alone ${alone.requests} requests, with Greenloop ${r.requests} (${Math.round(withGl.durationMs / 1000)} s)\n`);
  }
  console.log('| scenario | qwen alone: requests | how it ended | failing at end | Greenloop + qwen: requests | outcome | failing at end | test file intact | report = gateway log | target |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  if (missed) {
    console.error(`${missed} scenario(s) missed their target.`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});

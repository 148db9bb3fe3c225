// `greenloop fix --actor command` with the small real agent CLI (test/support/miniAgent.js, tools shaped as qwen's)
// on a fresh git copy of a fixture, every request through Greenloop's gateway to a scripted model: what the report
// says, what the model served, what each attempt's task said, and how many tests fail at the end.
import * as fs from 'fs';
import * as path from 'path';
import { runCli, ROOT, tempDir } from './cli';
import { makeFixtureWorkspace, countFailingTests } from '../../support/qwenAgent';
import { startScriptedAgentModel } from '../../support/scriptedAgentModel';
import { CALC3_FIXTURE } from '../../support/agentScenarios';
import type { Scenario } from '../../support/agentSteps';

const AGENT = `node ${JSON.stringify(path.resolve(__dirname, '../../support/miniAgent.js'))}`;

export async function fixWithMiniAgent(scenario: Scenario, flags: string[] = [], fixture = CALC3_FIXTURE) {
  const ws = makeFixtureWorkspace(path.join(ROOT, fixture));
  const stateDir = tempDir('state');
  const model = await startScriptedAgentModel({ scenario, workspace: ws.workspace, isMain: () => true });
  try {
    // The agent runs `npm test` itself; Greenloop's own runs need no npm.
    const res = await runCli(
      ['fix', '--cwd', ws.workspace, '--actor-cmd', AGENT, '--test-cmd', 'node --test', '--tsc', 'off', '--state-dir', stateDir, '--json', ...flags],
      { env: { OPENAI_BASE_URL: model.url }, timeoutMs: 110_000 },
    );
    const report = JSON.parse(res.stdout);
    const stops: Array<string | null> = report.iterations.map((it: any) => it.agent?.stoppedBy ?? null);
    const requests: number[] = report.iterations.map((it: any) => it.agent?.requests ?? 0);
    // The task each attempt's agent was given: the first message of each conversation.
    const tasks: string[] = model.requests.filter((r) => r.body.messages.length === 1).map((r) => String(r.body.messages[0].content));
    return { report, stops, requests, tasks, served: model.requests.length, failingAtEnd: await countFailingTests(ws.workspace), stderr: res.stderr };
  } finally {
    await model.close();
    ws.remove();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

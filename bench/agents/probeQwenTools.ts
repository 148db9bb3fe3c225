// Prints the tools qwen advertises in its first model request (names, arguments, required ones), with and without
// --bare: what the scenario steps in test/support/agentSteps.ts map their intents onto. Rerun it after a qwen
// upgrade. Usage: node -r tsx/cjs bench/agents/probeQwenTools.ts
import { say, scripted } from '../../test/support/agentSteps';
import type { ToolSpec } from '../../test/support/agentSteps';
import { runAgentAlone } from './qwenAlone';

async function main(): Promise<void> {
  for (const args of [['--bare'], []]) {
    const run = await runAgentAlone(scripted('probe', [say('Done.')]), { args, maxRequests: 5 });
    const first = run.log[0];
    if (!first) throw new Error(`qwen ${args.join(' ')} sent no model request (exit ${run.exitCode}): ${run.stderr.trim()}`);
    console.log(`qwen --yolo ${args.join(' ')}: exit ${run.exitCode}, ${run.requests} request(s), ${run.requests - run.mainRequests} side`);
    console.log(`  request keys: ${Object.keys(first.body).join(', ')}; stream_options: ${JSON.stringify(first.body.stream_options)}`);
    for (const tool of first.body.tools as ToolSpec[]) {
      const params = tool.function.parameters ?? {};
      const required = new Set(params.required ?? []);
      const names = Object.keys(params.properties ?? {}).map((p) => (required.has(p) ? `${p}*` : p));
      console.log(`  ${tool.function.name}(${names.join(', ')})`);
    }
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

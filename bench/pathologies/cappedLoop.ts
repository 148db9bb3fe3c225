// The way agent loops are bounded elsewhere, built from Greenloop's own parts (the same OpenAI actor and retries,
// edit parser and applier, test runner): ask, apply, run the tests, stop when the command exits 0 or after `cap`
// model calls. No witness, no stagnation or cycle check, no rollback, no protected files — a fixed cap only
// (25: the common framework default; 3: Aider's reflections).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OpenAIActor } from '../../src/actors/openaiActor';
import { withRetries } from '../../src/core/loop/turns/retry';
import { parseEditBlocks } from '../../src/core/edits/parseBlocks';
import { applyEditBlocks } from '../../src/core/edits/applyBlocks';
import { makePathPolicy } from '../../src/core/edits/pathPolicy';
import { EDIT_FORMAT, systemPrompt } from '../../src/core/prompt/prompt';
import { CommandVerifier } from '../../src/verify/commandVerifier';
import { resolveTestCommand } from '../../src/verify/testCommand';
import { runCommand } from '../../src/base/process/runCommand';
import type { Scenario } from './scenario';
import type { ScenarioRun } from './workspace';
import { addCounts, type LoopResult } from './loopResult';

// build/ and target/: CMake's and Maven's outputs (a CMake cache names the folder it was made in).
const SKIP = new Set(['node_modules', '.git', '__pycache__', '.pytest_cache', 'build', 'target']);
const FILES_CHARS = 48_000;

/** Every file of the small repository, as a fixed-cap loop would put the chat's files in its prompt. */
function filesBlock(root: string): string {
  const out: string[] = [];
  let size = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIP.has(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (size < FILES_CHARS) {
        const text = fs.readFileSync(abs, 'utf8').slice(0, FILES_CHARS - size);
        size += text.length;
        out.push(`${path.relative(root, abs)}\n\`\`\`\n${text}\n\`\`\``);
      }
    }
  };
  walk(root);
  return out.join('\n\n');
}

export async function runCappedLoop(scenario: Scenario, run: ScenarioRun, cap: number): Promise<LoopResult> {
  const started = Date.now();
  const testCommand = scenario.testCmd ?? resolveTestCommand(run.cwd);
  const verifier = new CommandVerifier({
    cwd: run.cwd,
    testCommand,
    tsc: 'off',
    timeoutMs: (scenario.verifyTimeoutS ?? 300) * 1000,
    env: { ...process.env, ...run.env },
  });
  const actor = new OpenAIActor({ baseUrl: run.server.url, model: 'scripted' });
  const policy = makePathPolicy({ root: run.cwd, protectedGlobs: [], allowTestEdits: true, excludes: [] });
  const log: string[] = [];
  const test = async (): Promise<{ exitCode: number | null; output: string }> => {
    try {
      const w = await verifier.verify();
      if (w.exitCode === 0 && !w.timedOut) {
        // The checks gate like a lint command: their exit code, nothing more.
        for (const check of [...(scenario.checks ?? []), ...(scenario.typescript ? ['node_modules/.bin/tsc --noEmit -p .'] : [])]) {
          const r = await runCommand({ command: check, cwd: run.cwd, env: { ...process.env, ...run.env }, timeoutMs: 120_000 });
          if (r.exitCode !== 0) return { exitCode: r.exitCode, output: `The check \`${check}\` failed:\n${r.output}` };
        }
      }
      return { exitCode: w.exitCode, output: w.timedOut ? `The test command timed out.\n${w.outputExcerpt}` : w.outputExcerpt };
    } catch (err) {
      return { exitCode: null, output: (err as Error).message };
    }
  };
  let result = await test();
  const matchedBy: Record<string, number> = {};
  let calls = 0;
  let ended = '';
  while (result.exitCode !== 0) {
    if (calls >= cap) {
      ended = `cap of ${cap} reached`;
      break;
    }
    calls++;
    const prompt = `Attempt ${calls} of ${cap}. The tests fail; fix the code.\n\nTest output:\n${result.output}\n\nFiles:\n${filesBlock(run.cwd)}\n\n${EDIT_FORMAT}`;
    let text: string;
    try {
      const answer = await withRetries(() => actor.propose({ prompt, system: systemPrompt(true), iteration: calls, cwd: run.cwd, signal: new AbortController().signal }));
      text = answer.kind === 'text' ? answer.text : '';
    } catch (err) {
      // A model error a loop cannot retry away ends it, as an exception ends a framework's agent loop.
      ended = `error: ${(err as Error).message}`;
      break;
    }
    const parsed = parseEditBlocks(text);
    if (parsed.errors.length === 0 && parsed.blocks.length > 0) {
      // Like other frameworks: no rule against suppressions (Greenloop's default refuses them).
      const placed: Record<string, number> = {};
      const applied = await applyEditBlocks(run.cwd, parsed.blocks, policy, undefined, undefined, { allowSuppressions: true }, placed);
      addCounts(matchedBy, placed);
      log.push(`call ${calls}: ${applied.ok ? `applied ${applied.files.join(', ') || 'nothing new'}` : applied.reason}`);
    } else {
      log.push(`call ${calls}: no usable edit`);
    }
    result = await test();
  }
  const claimedGreen = result.exitCode === 0;
  return { claimedGreen, ended: claimedGreen ? 'exit 0' : ended, reason: null, wallMs: Date.now() - started, log: log.join('\n'), matchedBy };
}

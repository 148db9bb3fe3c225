// Where an attempt's own time goes: each part the engine does per attempt, timed directly (median of `reps`) on the
// benchmark's workspace and the state its `greenloop fix` run saved. The engine does per model answer: build the
// prompt (asking git which context files it ignores), scan for files a person saved during the call, parse and apply
// the answer, snapshot the files it wrote, (test run), parse the output, scan for files the test run wrote, save the
// run state; once per run, append a history record. The two scans of the workspace are most of it on 20,000 files.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyEditBlocks } from '../src/core/edits/applyBlocks';
import { parseEditBlocks } from '../src/core/edits/parseBlocks';
import { isProtected, makePathPolicy } from '../src/core/edits/pathPolicy';
import { JsonlHistoryStore } from '../src/store/historyStore';
import { toHistoryRecord } from '../src/core/run/historyRecord';
import { buildPrompt, DEFAULT_PROMPT_OPTIONS } from '../src/core/prompt/prompt';
import { gatherContext } from '../src/core/prompt/gatherContext';
import { createCodeReader } from '../src/context/codeReader';
import { createRedactor } from '../src/base/redact';
import { RunStore } from '../src/store/runStore';
import { openSnapshotStore } from '../src/snapshot/gitSnapshotStore';
import { parseOutput } from '../src/runners/parseOutput';

export interface PartsInput {
  /** The workspace the run used (left as the run left it; every edit made here is undone). */
  workspace: string;
  /** The run's --state-dir: its saved run state feeds the prompt, the state save and the history record. */
  stateDir: string;
  /** A file of the workspace the apply timing edits back and forth. */
  editFile: string;
  /** What the test command printed, for the parse timing. */
  testOutput: string;
  reps: number;
}

/** Each part with its median time in ms; `perAttempt` says how many times the engine does it per attempt. */
export async function timeAttemptParts(input: PartsInput): Promise<Array<{ part: string; ms: number; perAttempt: number }>> {
  const { workspace, reps } = input;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-bench-parts-'));
  const target = path.join(workspace, input.editFile);
  const original = fs.readFileSync(target);
  const redactor = createRedactor([]);
  try {
    const store = await openSnapshotStore({ workspace, stateDir: scratch, runId: 'parts' });
    let last = await store.snapshot('warm');
    const rows: Array<{ part: string; ms: number; perAttempt: number }> = [];
    const add = async (part: string, perAttempt: number, fn: (i: number) => unknown) => rows.push({ part, ms: await median(reps, fn), perAttempt });

    const state = await new RunStore(input.stateDir, fs.realpathSync(workspace), redactor).load('last');
    const policy = makePathPolicy({ root: path.resolve(workspace), protectedGlobs: ['test/**'], allowTestEdits: false, excludes: [] });
    const reader = createCodeReader({ cwd: fs.realpathSync(workspace) });
    // As the engine builds it: the code context (its git check-ignore, tree-sitter), then the prompt, redacted.
    await add('prompt build (code context with its git check-ignore)', 1, async () => {
      const isProtectedRel = (rel: string) => isProtected(policy, rel);
      const context = await gatherContext({ state, policy, reader, budgetTokens: 6000, isProtected: isProtectedRel, unrecorded: (real) => store.unrecorded(real) });
      redactor.text(buildPrompt(state, Date.now(), { ...DEFAULT_PROMPT_OPTIONS, isProtected: isProtectedRel, allowTestEdits: false, context }));
    });
    await add('parse + apply the answer', 1, async (i) => {
      const [from, to] = i % 2 === 0 ? ["'use strict';", "'use strict'; "] : ["'use strict'; ", "'use strict';"];
      const answer = `Touching the header.\n\n${input.editFile}\n\`\`\`js\n<<<<<<< SEARCH\n${from}\n=======\n${to}\n>>>>>>> REPLACE\n\`\`\`\n`;
      const result = await applyEditBlocks(workspace, parseEditBlocks(answer).blocks, policy);
      if (!result.ok) throw new Error(result.reason);
    });
    // Once per attempt after the edit, told the file the edit wrote (the scan before it saw everything else).
    await add('snapshot of the 1 file the edit wrote', 1, async (i) => {
      fs.appendFileSync(target, `// ${i}\n`);
      last = await store.snapshot(`edit ${i}`, [input.editFile]);
    });
    await add(`parse the test output (${Math.round(input.testOutput.length / 1024)} KB)`, 1, () => parseOutput(input.testOutput));
    // Twice per attempt: after the model's answer (has a person saved a file?) and after the tests (what did they write?).
    await add('scan for files changed since the snapshot', 2, () => store.changedSince(last.id));
    const runs = new RunStore(scratch, fs.realpathSync(workspace), redactor);
    await add('save the run state', 1, () => runs.save(state));
    const history = new JsonlHistoryStore(path.join(scratch, 'history.jsonl'), redactor);
    await add('history write (once per run)', 0, () => history.append(toHistoryRecord(state)));
    return rows;
  } finally {
    fs.writeFileSync(target, original);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function median(reps: number, fn: (i: number) => unknown): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn(i);
    xs.push(performance.now() - t);
  }
  return xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

// Run history: one JSON line per run, per workspace. Corrupt lines are skipped with a warning, the file is capped.
import * as fs from 'fs';
import * as path from 'path';
import { createHash } from 'crypto';
import type { OutsideWarning, RunState } from './runState';
import { canonicalWorkspace, workspaceKey } from '../shared/stateDir';
import type { Redactor } from './redact';
import type { AgentCounts } from '../shared/plainWords';

export interface HistoryIteration {
  n: number;
  verdict: string;
  failing: string[];
  /** Test files that did not load after this attempt, counted apart from the failing tests. */
  loadErrorFiles?: string[];
  diagnostics: number;
  files: string[];
  rolledBack: boolean;
  tokens: { prompt: number; completion: number };
  durationMs: number;
  note: string;
  hypothesis: string;
  beforeSnapshot: string;
  afterSnapshot: string | null;
  /** Tests that ran before this attempt's edit and not after it. */
  missing?: string[];
  /** Tests that failed and then passed on a re-run of this attempt's files. */
  flaky?: string[];
  /** An agent CLI's attempt in numbers; its transcript stays in the saved run, to keep the history small. */
  agent?: AgentCounts;
  /** Files of the agent's attempt put back because it may not change them. */
  reverted?: Array<{ path: string; reason: string }>;
  /** Protected test files that changed while the tests ran, undone; what was written is kept in `snapshot`. */
  testsWrote?: { snapshot: string; paths: string[] };
  /** Changes outside the snapshotted tree while the agent ran that Greenloop could neither undo nor attribute. */
  outsideWarnings?: OutsideWarning[];
}

export interface HistoryRecord {
  runId: string;
  cwd: string;
  actor: string;
  startedAt: number;
  finishedAt: number | null;
  outcome: string;
  reason: string | null;
  reasonText: string;
  finalState: string | null;
  configHash: string;
  baselineFailing: string[];
  /** Test files that did not load, counted apart (absent in older records, which listed them among the failing). */
  baselineLoadErrorFiles?: string[];
  baselineDiagnostics: number;
  finalFailing: string[];
  finalLoadErrorFiles?: string[];
  finalDiagnostics: number;
  baselineSnapshot: string;
  bestSnapshot: string;
  iterations: HistoryIteration[];
  tokens: { prompt: number; completion: number };
  llmCalls: number;
  hints: string[];
  outputExcerpt: string;
  /** Tests found flaky during the run. */
  flaky?: string[];
  /** The run stopped before its first usable test run: its counts are no measurement and are never shown. */
  unmeasured?: boolean;
}

export interface HistoryStore {
  append(record: HistoryRecord): Promise<void>;
  list(): Promise<{ records: HistoryRecord[]; warnings: string[] }>;
  clear(): Promise<void>;
}

/** Same model and same budgets: repeating such a run on the same failures is unlikely to end differently. */
export function configHash(state: Pick<RunState, 'actorLabel' | 'config'>): string {
  const { maxIterations, maxTokens, maxMinutes, patience, allowTestEdits } = state.config;
  return sha(JSON.stringify([state.actorLabel, maxIterations, maxTokens, maxMinutes, patience, allowTestEdits])).slice(0, 16);
}

/** History is kept per workspace under the same key as its snapshot store. */
export function historyKey(workspace: string): string {
  try {
    return workspaceKey(canonicalWorkspace(workspace));
  } catch {
    return workspaceKey(path.resolve(workspace)); // a folder that is gone still gets a stable key
  }
}

export function toHistoryRecord(state: RunState): HistoryRecord {
  return {
    runId: state.runId,
    cwd: state.cwd,
    actor: state.actorLabel,
    startedAt: state.startedAt - state.elapsedBeforeMs,
    finishedAt: state.finishedAt,
    outcome: state.outcome,
    reason: state.reason,
    reasonText: state.reasonText,
    finalState: state.finalState,
    configHash: configHash(state),
    baselineFailing: state.baseline.witness.failing,
    baselineLoadErrorFiles: state.baseline.witness.loadErrorFiles ?? [],
    baselineDiagnostics: state.baseline.witness.diagnostics.length,
    finalFailing: state.current.witness.failing,
    finalLoadErrorFiles: state.current.witness.loadErrorFiles ?? [],
    finalDiagnostics: state.current.witness.diagnostics.length,
    baselineSnapshot: state.baseline.snapshot,
    bestSnapshot: state.best.snapshot,
    iterations: state.iterations.map((it) => ({
      n: it.n, verdict: it.verdict, failing: it.failing, loadErrorFiles: it.loadErrorFiles ?? [], diagnostics: it.diagnostics, files: it.files, rolledBack: it.rolledBack,
      tokens: it.tokens, durationMs: it.durationMs, note: it.note, hypothesis: it.hypothesis,
      beforeSnapshot: it.beforeSnapshot, afterSnapshot: it.afterSnapshot, missing: it.missing ?? [], flaky: it.flaky ?? [],
      ...(it.agent ? { agent: { requests: it.agent.requests, gatewayAnswers: it.agent.gatewayAnswers, stoppedBy: it.agent.stoppedBy, exitCode: it.agent.exitCode } } : {}),
      ...(it.reverted?.length ? { reverted: it.reverted } : {}),
      ...(it.testsWrote ? { testsWrote: it.testsWrote } : {}),
      ...(it.outsideWarnings?.length ? { outsideWarnings: it.outsideWarnings } : {}),
    })),
    tokens: { prompt: state.tokens.prompt, completion: state.tokens.completion },
    llmCalls: state.llmCalls,
    hints: state.hints,
    outputExcerpt: state.current.witness.outputExcerpt,
    flaky: state.flaky ?? [],
    ...(state.baseline.witness.unmeasured ? { unmeasured: true } : {}),
  };
}

export class JsonlHistoryStore implements HistoryStore {
  /** `redactor`: every record is written through it (output excerpts, notes and hypotheses can carry secrets). */
  constructor(
    private readonly file: string,
    private readonly redactor: Redactor,
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  static forWorkspace(stateDir: string, workspace: string, redactor: Redactor): JsonlHistoryStore {
    return new JsonlHistoryStore(path.join(stateDir, 'history', `${historyKey(workspace)}.jsonl`), redactor);
  }

  async append(record: HistoryRecord): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
    await fs.promises.appendFile(this.file, `${JSON.stringify(this.redactor.json(record))}\n`);
    const { size } = await fs.promises.stat(this.file);
    if (size > this.maxBytes) await this.compact();
  }

  async list(): Promise<{ records: HistoryRecord[]; warnings: string[] }> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], warnings: [] };
      return { records: [], warnings: [`Could not read the run history ${this.file}: ${(err as Error).message}`] };
    }
    const records: HistoryRecord[] = [];
    let corrupt = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as HistoryRecord;
        if (typeof r.runId === 'string' && Array.isArray(r.iterations)) records.push(r);
        else corrupt++;
      } catch {
        corrupt++;
      }
    }
    const warnings = corrupt ? [`Skipped ${corrupt} unreadable line${corrupt === 1 ? '' : 's'} in the run history ${this.file}.`] : [];
    return { records, warnings };
  }

  async clear(): Promise<void> {
    await fs.promises.rm(this.file, { force: true });
  }

  /** Keeps the newest records that fit in half the cap, so compaction does not run on every append. */
  private async compact(): Promise<void> {
    const lines = (await fs.promises.readFile(this.file, 'utf8')).split('\n').filter((l) => l.trim());
    const kept: string[] = [];
    let bytes = 0;
    for (let i = lines.length - 1; i >= 0 && bytes + lines[i].length + 1 <= this.maxBytes / 2; i--) {
      kept.unshift(lines[i]);
      bytes += lines[i].length + 1;
    }
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, kept.map((l) => `${l}\n`).join(''));
    await fs.promises.rename(tmp, this.file);
  }
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

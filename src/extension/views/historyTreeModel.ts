// The "Loop history" tree as plain data: which nodes exist, their labels, icons and commands. Pure, so what a person
// sees in the tree is tested without VS Code; historyTree.ts only maps these onto vscode.TreeItem.
import type { HistoryIteration, HistoryRecord } from '../../ports/history';
import type { OutsideWarning } from '../../ports/runState';
import { explainStop } from './reasonText';
import { candidateFileNodes, candidateNodeId, candidateNodes, describeCandidateNode, type CandidateNode } from './candidateNodes';
import { agentCountsText, countsText, NO_TEST_COUNT, verdictWords, workspaceAtText } from '../../shared/plainWords';

export type HistoryNode =
  | { kind: 'folder'; folder: string; name: string }
  | { kind: 'run'; folder: string; record: HistoryRecord }
  | { kind: 'report'; folder: string; record: HistoryRecord }
  | { kind: 'iteration'; folder: string; runId: string; iteration: HistoryIteration }
  | { kind: 'test'; folder: string; runId: string; n: number; test: string; status: TestNodeStatus }
  | { kind: 'file'; folder: string; runId: string; iteration: HistoryIteration; file: string }
  | { kind: 'agent'; folder: string; runId: string; iteration: HistoryIteration }
  | { kind: 'reverted'; folder: string; runId: string; n: number; path: string; reason: string }
  | { kind: 'testsWrote'; folder: string; runId: string; n: number; path: string }
  | { kind: 'outside'; folder: string; runId: string; n: number; warning: OutsideWarning }
  | { kind: 'cast'; folder: string; runId: string; iteration: HistoryIteration; sentence: string }
  | { kind: 'more'; folder: string; parentId: string; count: number }
  | CandidateNode;

/**
 * failing after the attempt; missing: ran before it and not after; flaky: failed, then passed on a re-run;
 * not-loaded: a test file that did not load (none of its tests ran), not a failing test.
 */
export type TestNodeStatus = 'failing' | 'missing' | 'flaky' | 'not-loaded';

const TEST_LOOK: Record<TestNodeStatus, { icon: NodeIcon; description?: string; tooltip: string }> = {
  failing: { icon: { id: 'close', color: 'testing.iconFailed' }, tooltip: 'failing after this attempt' },
  missing: { icon: { id: 'question', color: 'list.warningForeground' }, description: 'missing', tooltip: 'ran before this attempt and did not run after it: counted as broken, never as fixed' },
  flaky: { icon: { id: 'beaker', color: 'charts.yellow' }, description: 'flaky', tooltip: 'failed, then passed on a re-run of the same files: counted neither as progress nor as regression' },
  'not-loaded': { icon: { id: 'file-code', color: 'testing.iconErrored' }, description: 'did not load', tooltip: 'this test file did not load after this attempt (a syntax error, a missing import): none of its tests ran' },
};

export interface NodeIcon {
  id: string;
  /** A theme colour id, so icons follow the person's theme. */
  color?: string;
}

export interface NodeView {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: NodeIcon;
  collapsible: 'none' | 'collapsed' | 'expanded';
  contextValue: string;
  command?: { command: string; title: string; arguments: unknown[] };
  /** Workspace-relative path, for file nodes (lets the file icon theme pick the icon). */
  resourcePath?: string;
}

/** A failing suite can list hundreds of tests; the tree shows the first ones and says how many more. */
export const MAX_TESTS_SHOWN = 50;

const OUTCOME_ICONS: Record<string, NodeIcon> = {
  running: { id: 'sync~spin' },
  green: { id: 'pass-filled', color: 'testing.iconPassed' },
  // The status bar shows an escalated run with $(error) on the error colour; the tree says it the same way.
  escalated: { id: 'error', color: 'errorForeground' },
  cancelled: { id: 'circle-slash', color: 'disabledForeground' },
  error: { id: 'bug', color: 'errorForeground' },
};

const VERDICT_ICONS: Record<string, NodeIcon> = {
  green: { id: 'pass-filled', color: 'testing.iconPassed' },
  progress: { id: 'check', color: 'charts.green' },
  'no-progress': { id: 'dash', color: 'charts.yellow' },
  regression: { id: 'error', color: 'charts.red' },
  'invalid-proposal': { id: 'circle-slash', color: 'list.warningForeground' },
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** Local time; today's runs show only the time, older ones the date too. */
export function formatStartTime(ms: number, now: number): string {
  const d = new Date(ms);
  const today = new Date(now);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (d.toDateString() === today.toDateString()) return time;
  if (d.getFullYear() === today.getFullYear()) return `${MONTHS[d.getMonth()]} ${d.getDate()} ${time}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

const count = (failing: readonly string[], diagnostics: number, notLoaded?: readonly string[]) => countsText(failing.length, diagnostics, notLoaded?.length ?? 0);

/** One entry per run, newest first. A resumed run appends a new record under the same id; the last one wins. */
export function runsNewestFirst(records: readonly HistoryRecord[], live?: HistoryRecord): HistoryRecord[] {
  const byId = new Map<string, HistoryRecord>();
  for (const r of records) byId.set(r.runId, r);
  if (live) byId.set(live.runId, live);
  return [...byId.values()].sort((a, b) => b.startedAt - a.startedAt);
}

export function nodeId(node: HistoryNode): string {
  switch (node.kind) {
    case 'folder': return node.folder;
    case 'run': return `${node.folder}|${node.record.runId}`;
    case 'report': return `${node.folder}|${node.record.runId}|report`;
    case 'iteration': return `${node.folder}|${node.runId}|${node.iteration.n}`;
    case 'test': return `${node.folder}|${node.runId}|${node.n}|${node.status}|${node.test}`;
    case 'file': return `${node.folder}|${node.runId}|${node.iteration.n}|file|${node.file}`;
    case 'agent': return `${node.folder}|${node.runId}|${node.iteration.n}|agent`;
    case 'reverted': return `${node.folder}|${node.runId}|${node.n}|reverted|${node.path}`;
    case 'testsWrote': return `${node.folder}|${node.runId}|${node.n}|testsWrote|${node.path}`;
    case 'outside': return `${node.folder}|${node.runId}|${node.n}|outside|${node.warning.where}`;
    case 'cast': return `${node.folder}|${node.runId}|${node.iteration.n}|cast|${node.sentence}`;
    case 'more': return `${node.parentId}|more`;
    case 'candidate':
    case 'candidateFile':
      return candidateNodeId(node);
  }
}

export function childrenOf(node: HistoryNode): HistoryNode[] {
  switch (node.kind) {
    case 'run':
      return [
        { kind: 'report', folder: node.folder, record: node.record },
        ...node.record.iterations.map((iteration): HistoryNode => ({ kind: 'iteration', folder: node.folder, runId: node.record.runId, iteration })),
      ];
    case 'iteration': {
      const { folder, runId, iteration } = node;
      const flaky = new Set(iteration.flaky ?? []);
      const named: Array<[string, TestNodeStatus]> = [
        ...(iteration.loadErrorFiles ?? []).map((f): [string, TestNodeStatus] => [f, 'not-loaded']),
        ...(iteration.missing ?? []).map((t): [string, TestNodeStatus] => [t, 'missing']),
        ...iteration.failing.map((t): [string, TestNodeStatus] => [t, flaky.has(t) ? 'flaky' : 'failing']),
        ...[...flaky].filter((t) => !iteration.failing.includes(t)).map((t): [string, TestNodeStatus] => [t, 'flaky']),
      ];
      const tests = named.slice(0, MAX_TESTS_SHOWN).map(([test, status]): HistoryNode => ({ kind: 'test', folder, runId, n: iteration.n, test, status }));
      const hidden = named.length - tests.length;
      const more: HistoryNode[] = hidden > 0 ? [{ kind: 'more', folder, parentId: nodeId(node), count: hidden }] : [];
      const files = iteration.files.map((file): HistoryNode => ({ kind: 'file', folder, runId, iteration, file }));
      // What the agent did comes first: it explains the tests and files below it.
      const agent: HistoryNode[] = iteration.agent ? [{ kind: 'agent', folder, runId, iteration }] : [];
      const reverted = (iteration.reverted ?? []).map((r): HistoryNode => ({ kind: 'reverted', folder, runId, n: iteration.n, path: r.path, reason: r.reason }));
      const undone = (iteration.testsWrote?.paths ?? []).map((p): HistoryNode => ({ kind: 'testsWrote', folder, runId, n: iteration.n, path: p }));
      const outside = (iteration.outsideWarnings ?? []).map((warning): HistoryNode => ({ kind: 'outside', folder, runId, n: iteration.n, warning }));
      const casts = (iteration.castWarnings ?? []).map((sentence): HistoryNode => ({ kind: 'cast', folder, runId, iteration, sentence }));
      // Every answer of the attempt, first: which was chosen explains the tests and files below.
      const answers = candidateNodes(folder, runId, iteration);
      return [...answers, ...agent, ...reverted, ...undone, ...outside, ...casts, ...tests, ...more, ...files];
    }
    case 'candidate':
      return candidateFileNodes(node);
    default:
      return [];
  }
}

function runView(node: Extract<HistoryNode, { kind: 'run' }>, now: number): NodeView {
  const r = node.record;
  const why = explainStop(r.outcome, r.reason);
  // "6 → 4 failing"; with type errors on either side each side says both, never one sum.
  const plainTests = r.baselineDiagnostics === 0 && r.finalDiagnostics === 0 && !r.baselineLoadErrorFiles?.length && !r.finalLoadErrorFiles?.length;
  const before = plainTests ? String(r.baselineFailing.length) : count(r.baselineFailing, r.baselineDiagnostics, r.baselineLoadErrorFiles);
  const after = count(r.finalFailing, r.finalDiagnostics, r.finalLoadErrorFiles);
  const tokens = r.tokens.prompt + r.tokens.completion;
  const tooltip = [
    `${why.title}: ${r.reasonText || why.sentence}`,
    `Started ${new Date(r.startedAt).toLocaleString()} · ${r.iterations.length} attempt${r.iterations.length === 1 ? '' : 's'} · ${formatTokens(tokens)} tokens · ${r.actor}`,
    workspaceAtText(r.finalState) && r.iterations.length ? `Workspace at ${workspaceAtText(r.finalState)}.` : '',
    ...r.hints.map((h) => `Hint: ${h}`),
  ].filter(Boolean).join('\n');
  return {
    id: nodeId(node),
    label: why.title,
    // A run that never got a usable test run has no count to show: "0 → 0 failing" would read as green.
    description: `${formatStartTime(r.startedAt, now)} · ${r.unmeasured ? NO_TEST_COUNT : `${before} → ${after}`}`,
    tooltip,
    icon: OUTCOME_ICONS[r.outcome] ?? { id: 'question' },
    collapsible: r.outcome === 'running' ? 'expanded' : 'collapsed',
    contextValue: `greenloop.run.${r.outcome}`,
  };
}

/** What the project's fixers ran, for the tooltip of their row. */
function fixersText(it: HistoryIteration): string {
  const ran = (it.commands ?? []).map((c) => `${c.command} (${formatDuration(c.ms)})${c.problem ? `: ${c.problem}` : ''}`);
  return `Greenloop ran the project's own fixers before the first model call: ${ran.join('; ') || 'none could run'}.`;
}

function iterationView(node: Extract<HistoryNode, { kind: 'iteration' }>): NodeView {
  const it = node.iteration;
  const tokens = it.tokens.prompt + it.tokens.completion;
  const hypothesis = it.hypothesis.trim();
  return {
    id: nodeId(node),
    label: it.actor === 'autofix' ? `Project's fixers (no model): ${verdictWords(it.verdict)}` : `Attempt ${it.n}: ${verdictWords(it.verdict)}`,
    description: `${count(it.failing, it.diagnostics, it.loadErrorFiles)} · ${formatTokens(tokens)} tok · ${formatDuration(it.durationMs)}`,
    tooltip: [it.actor === 'autofix' ? fixersText(it) : hypothesis ? `Hypothesis: ${hypothesis}` : 'The model gave no hypothesis.', it.note, it.rolledBack ? 'This edit was rolled back.' : '',
      it.flaky?.length ? `Flaky: ${it.flaky.join(', ')} failed, then passed on a re-run.` : '',
      it.castWarnings?.length ? `${it.castWarnings.length} cast${it.castWarnings.length === 1 ? '' : 's'} to check: ${it.castWarnings.map((c) => castPlace(c).short).join(', ')}` : '']
      .filter(Boolean).join('\n\n'),
    icon: VERDICT_ICONS[it.verdict] ?? { id: 'question' },
    collapsible: it.failing.length || it.loadErrorFiles?.length || it.files.length || it.missing?.length || it.flaky?.length || it.agent || it.reverted?.length || it.testsWrote || it.outsideWarnings?.length || it.castWarnings?.length || it.candidates?.length ? 'collapsed' : 'none',
    contextValue: 'greenloop.iteration',
  };
}

export function describeNode(node: HistoryNode, now: number): NodeView {
  switch (node.kind) {
    case 'folder':
      return { id: nodeId(node), label: node.name, icon: { id: 'root-folder' }, collapsible: 'expanded', contextValue: 'greenloop.folder' };
    case 'run':
      return runView(node, now);
    case 'report':
      return {
        id: nodeId(node),
        label: node.record.outcome === 'escalated' ? 'Open escalation report' : 'Open run report',
        icon: { id: 'preview' },
        collapsible: 'none',
        contextValue: 'greenloop.report',
        command: { command: 'greenloop.openRunPanel', title: 'Open run report', arguments: [node.folder, node.record.runId] },
      };
    case 'iteration':
      return iterationView(node);
    case 'test': {
      const look = TEST_LOOK[node.status];
      return { id: nodeId(node), label: node.test, description: look.description, tooltip: `${node.test}: ${look.tooltip}`, icon: look.icon, collapsible: 'none', contextValue: 'greenloop.test' };
    }
    case 'file': {
      const canDiff = node.iteration.afterSnapshot !== null;
      return {
        id: nodeId(node),
        label: node.file,
        description: node.iteration.rolledBack ? 'changed, rolled back' : 'changed',
        tooltip: canDiff ? `Show what attempt ${node.iteration.n} changed in ${node.file}` : `${node.file} (no snapshot to compare)`,
        icon: { id: 'file' },
        collapsible: 'none',
        contextValue: 'greenloop.file',
        resourcePath: node.file,
        command: canDiff
          ? { command: 'greenloop.openIterationDiff', title: 'Show change', arguments: [node.folder, node.runId, node.iteration.n, node.file] }
          : undefined,
      };
    }
    case 'agent':
      return {
        id: nodeId(node),
        label: `agent: ${agentCountsText(node.iteration.agent!)}`,
        tooltip: `Open the agent's transcript of attempt ${node.iteration.n}: the model's last message, every model request and the tail of the agent's output.`,
        icon: { id: 'terminal' },
        collapsible: 'none',
        contextValue: 'greenloop.agent',
        command: { command: 'greenloop.showAgentTranscript', title: 'Show agent transcript', arguments: [node.folder, node.runId, node.iteration.n] },
      };
    case 'reverted':
      return {
        id: nodeId(node),
        label: `put back: ${node.path}`,
        description: node.reason,
        tooltip: `${node.path}: the agent may not change it, so Greenloop put it back before testing the rest. ${node.reason}`,
        icon: { id: 'discard', color: 'list.warningForeground' },
        collapsible: 'none',
        contextValue: 'greenloop.reverted',
        resourcePath: node.path,
      };
    case 'testsWrote':
      return {
        id: nodeId(node),
        label: `undone: ${node.path}`,
        description: 'rewritten while the tests ran',
        tooltip: `${node.path} is a protected test file and changed while the tests ran, so it was put back with the rollback. Show what was written (kept in a snapshot; if you saved this file yourself meanwhile, your version is there).`,
        icon: { id: 'discard', color: 'list.errorForeground' },
        collapsible: 'none',
        contextValue: 'greenloop.testsWrote',
        resourcePath: node.path,
        command: { command: 'greenloop.openIterationDiff', title: 'Show what was written', arguments: [node.folder, node.runId, node.n, node.path] },
      };
    case 'outside': {
      const w = node.warning;
      return {
        id: nodeId(node),
        label: `outside: ${w.where} ${w.what}`,
        description: 'left as it is',
        tooltip: `${w.where} ${w.what} while the agent ran attempt ${node.n} (${w.why}). Greenloop can neither undo this nor tell the agent's write from another program's, so it was left as it is and the attempt stands; look at it if you did not expect it.`,
        icon: { id: 'warning', color: 'list.warningForeground' },
        collapsible: 'none',
        contextValue: 'greenloop.outside',
      };
    }
    case 'cast': {
      const { file, short } = castPlace(node.sentence);
      const it = node.iteration;
      return {
        id: nodeId(node),
        label: `cast: ${short}`,
        description: 'check it',
        tooltip: node.sentence,
        icon: { id: 'warning', color: 'list.warningForeground' },
        collapsible: 'none',
        contextValue: 'greenloop.cast',
        ...(file ? { resourcePath: file } : {}),
        command: file && it.afterSnapshot !== null
          ? { command: 'greenloop.openIterationDiff', title: 'Show change', arguments: [node.folder, node.runId, it.n, file] }
          : undefined,
      };
    }
    case 'more':
      return { id: nodeId(node), label: `…and ${node.count} more failing`, icon: { id: 'ellipsis' }, collapsible: 'none', contextValue: 'greenloop.more' };
    case 'candidate':
    case 'candidateFile':
      return describeCandidateNode(node);
  }
}

/**
 * "src/money.ts:3 `as any`" and the file, from a cast warning's sentence (core/edits/castWarnings.ts writes it as
 * "<file>:<line>: the edit adds `<cast>` …"); a sentence in another shape is shown whole.
 */
function castPlace(sentence: string): { file: string | null; short: string } {
  const m = /^(.+?):(\d+): the edit adds (`[^`]+`)/.exec(sentence);
  return m ? { file: m[1], short: `${m[1]}:${m[2]} ${m[3]}` } : { file: null, short: sentence };
}

// An attempt's answers in the "Loop history" tree (`--candidates N`): one row per answer under its attempt, saying
// whether it was chosen, what its trial said or why it was refused, and why it lost; its changed files open its diff
// against the attempt's start. Pure, like historyTreeModel.ts, which it extends.
import type { HistoryIteration } from '../../ports/history';
import type { CandidateRecord } from '../../ports/runState';
import { candidateWords } from '../../shared/plainWords';
import { formatTokens, type NodeIcon, type NodeView } from './historyTreeModel';

export type CandidateNode =
  | { kind: 'candidate'; folder: string; runId: string; iteration: HistoryIteration; candidate: CandidateRecord }
  | { kind: 'candidateFile'; folder: string; runId: string; iteration: HistoryIteration; candidate: CandidateRecord; file: string };

const CANDIDATE_ICONS: Record<string, NodeIcon> = {
  green: { id: 'pass-filled', color: 'testing.iconPassed' },
  progress: { id: 'check', color: 'charts.green' },
  'no-progress': { id: 'dash', color: 'charts.yellow' },
  refused: { id: 'circle-slash', color: 'list.warningForeground' },
  repeat: { id: 'history', color: 'disabledForeground' },
  missing: { id: 'clock', color: 'disabledForeground' },
};

export function candidateNodes(folder: string, runId: string, iteration: HistoryIteration): CandidateNode[] {
  return (iteration.candidates ?? []).map((candidate) => ({ kind: 'candidate', folder, runId, iteration, candidate }));
}

/** Its files, each opening its diff; none when it never reached the files (refused, did not arrive). */
export function candidateFileNodes(node: Extract<CandidateNode, { kind: 'candidate' }>): CandidateNode[] {
  if (!node.candidate.snapshot) return [];
  return node.candidate.files.map((file) => ({ ...node, kind: 'candidateFile', file }));
}

export function candidateNodeId(node: CandidateNode): string {
  const base = `${node.folder}|${node.runId}|${node.iteration.n}|candidate|${node.candidate.k}`;
  return node.kind === 'candidate' ? base : `${base}|${node.file}`;
}

/** A tried answer says its failing count; one set aside says why, which is the point of its row. */
function candidateDescription(c: CandidateRecord): string {
  const tokens = `${formatTokens(c.tokens.prompt + c.tokens.completion)} tok`;
  if (c.failing === null) return [c.note, tokens].filter(Boolean).join(' · ');
  const newly = c.newlyFailing ? `, ${c.newlyFailing} newly` : '';
  return `${c.failing} failing${newly} · ${tokens}`;
}

export function describeCandidateNode(node: CandidateNode): NodeView {
  const c = node.candidate;
  const n = node.iteration.n;
  if (node.kind === 'candidateFile') {
    return {
      id: candidateNodeId(node),
      label: node.file,
      description: 'changed',
      tooltip: `Show what answer ${c.k} of attempt ${n} changed in ${node.file}`,
      icon: { id: 'file' },
      collapsible: 'none',
      contextValue: 'greenloop.candidateFile',
      resourcePath: node.file,
      command: { command: 'greenloop.openIterationDiff', title: 'Show change', arguments: [node.folder, node.runId, n, node.file, c.k] },
    };
  }
  const tooltip = [
    `Answer ${c.k} of attempt ${n}: ${candidateWords(c.verdict)}${c.chosen ? ', chosen: it went on to the whole suite' : ''}.`,
    c.note,
    c.lostBecause ? `Not chosen: ${c.lostBecause}.` : '',
    c.votes > 1 ? `${c.votes} answers made this same edit.` : '',
    c.files.length ? `Files: ${c.files.join(', ')}` : '',
    `${formatTokens(c.tokens.prompt + c.tokens.completion)} tokens`,
  ].filter(Boolean).join('\n');
  return {
    id: candidateNodeId(node),
    label: `Answer ${c.k}${c.chosen ? ' (chosen)' : ''}: ${candidateWords(c.verdict)}`,
    description: candidateDescription(c),
    tooltip,
    icon: CANDIDATE_ICONS[c.verdict] ?? { id: 'question' },
    collapsible: candidateFileNodes(node).length ? 'collapsed' : 'none',
    contextValue: c.chosen ? 'greenloop.candidate.chosen' : 'greenloop.candidate',
  };
}

// The scripted model of bench:testtime: request n gets the scenario's n-th answer as SEARCH/REPLACE blocks written
// against the workspace as it stands (a real model sees the files in its prompt), so the same script plays fair with
// either verify scope, whatever each kept or rolled back before it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeOpenAIServer } from '../../test/support/fakeOpenAIServer';
import type { FakeOpenAIServer, ScriptStep } from '../../test/support/fakeOpenAIServer';
import { block, say } from '../pathologies/scenario';
import type { TextEdit } from './scenarios';

export interface ScriptedModel {
  server: FakeOpenAIServer;
  /** Requests beyond the script (each answered with no edit): the loop asked more than the scenario plans. */
  extra(): number;
}

/** Whole lines around the one occurrence of `find`, before and after the replacement; null when it is not there once. */
function replaceBlock(text: string, edit: TextEdit): { search: string; replace: string } | null {
  const at = text.indexOf(edit.find);
  if (at < 0 || text.indexOf(edit.find, at + 1) >= 0) return null;
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const newline = text.indexOf('\n', at + edit.find.length);
  const end = newline < 0 ? text.length : newline;
  const search = text.slice(start, end);
  const offset = at - start;
  return { search, replace: search.slice(0, offset) + edit.replace + search.slice(offset + edit.find.length) };
}

/** The lines where `now` differs from `upstream` (one hunk, with a line of context when it is a pure insertion). */
function restoreBlock(now: string, upstream: string): { search: string; replace: string } | null {
  if (now === upstream) return null;
  const a = now.split('\n');
  const b = upstream.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  if (a.length - head - tail === 0) head = Math.max(0, head - 1);
  return { search: a.slice(head, a.length - tail).join('\n'), replace: b.slice(head, b.length - tail).join('\n') };
}

/** The answer to one request: the edit as a block, or (when it cannot be written) prose with no block. */
export function answerFor(edit: TextEdit, cwd: string, pristine: string): ScriptStep {
  const now = fs.readFileSync(path.join(cwd, edit.file), 'utf8');
  const change = edit.restores ? restoreBlock(now, fs.readFileSync(path.join(pristine, edit.file), 'utf8')) : replaceBlock(now, edit);
  if (!change) return say(`${edit.why}: ${edit.restores ? 'the file already reads as it should' : 'the line to change is not there'}, so no edit.`);
  return say(edit.why, block(edit.file, change.search, change.replace));
}

export async function startScriptedModel(answers: readonly TextEdit[], cwd: string, pristine: string): Promise<ScriptedModel> {
  let extra = 0;
  const server = await startFakeOpenAIServer([], {
    countUsage: true,
    respond: (_req, n) => {
      const edit = answers[n - 1];
      if (edit) return answerFor(edit, cwd, pristine);
      extra++;
      return say('I have nothing else to try.');
    },
  });
  return { server, extra: () => extra };
}

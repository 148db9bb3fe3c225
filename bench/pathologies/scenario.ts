// What one pathology is: a small repository, a scripted model that answers over the OpenAI protocol, and what a
// correct terminator does with it. The model sees the workspace (as a real model sees the files in its prompt), so
// its edits apply to whatever state the loop left — the same script plays fair with every kind of loop.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptStep } from '../../test/support/fakeOpenAIServer';

/** What the scripted model knows when it answers: which request this is and the workspace as it stands. */
export interface ModelTurn {
  /** 1-based number of the chat request (every request counts: a 429 too). */
  n: number;
  cwd: string;
  read(rel: string): string | null;
}

export interface Expected {
  /** green: a correct loop reaches green (with the tests as written); stop: it must stop without green. */
  outcome: 'green' | 'stop';
  /** Greenloop's stop reasons that are right for this scenario (empty for green). */
  reasons: string[];
  /**
   * Model requests after which the outcome is already decided: for a green scenario, the requests the fix needs;
   * for a hopeless one, the first answer that shows the model cannot do better (0 when no answer can help).
   * Every request after this point is wasted.
   */
  decidedAfter: number;
  /** Why decidedAfter is what it is, in words (printed with --explain). */
  why: string;
}

export interface Scenario {
  name: string;
  title: string;
  /** Files of the repository, path → content. */
  files: Record<string, string>;
  /** Test command, when the repository's package.json does not give it. */
  testCmd?: string;
  /** The command the judge runs on the final files (default: the test command); for a command that never ends. */
  judgeCmd?: string;
  /** Per-run test timeout for all three loops, seconds (default: Greenloop's, 300). */
  verifyTimeoutS?: number;
  /** Variables the test command reads; `{dir}` becomes a private folder of the run. */
  env?: Record<string, string>;
  /**
   * Checkers beside the tests (`greenloop fix --check`); a fixed-cap loop runs them after the tests and stops when
   * all exit 0, as Aider's --lint-cmd does.
   */
  checks?: string[];
  /**
   * The repository has TypeScript installed (the bench's own, linked as `npm install` would put it): Greenloop's
   * default --tsc auto checks it; a fixed-cap loop gates on `tsc --noEmit` like a lint command.
   */
  typescript?: boolean;
  /** The repository has ESLint installed (the checker tests' cache, test/fixtures/regenerate/checkers.sh, linked as node_modules). */
  eslint?: boolean;
  /** Runs only when this tool is on PATH (e.g. python3 with pytest). */
  needs?: { command: string; probe: string[] };
  /** GET /models status (401: a refused key everywhere). */
  modelsStatus?: number;
  model(turn: ModelTurn): ScriptStep;
  expected: Expected;
  /** Part of the quick subset `.ci/run` runs. */
  quick?: boolean;
  /** The model games the suite at some point: a loop that trusts exit 0 accepts it (the judge must see that). */
  cheat?: boolean;
}

/** One SEARCH/REPLACE block (contract: edit format). */
export function block(file: string, search: string, replace: string): string {
  const lines = (s: string) => (s === '' ? '' : `${s.replace(/\n$/, '')}\n`);
  return `${file}\n\`\`\`\n<<<<<<< SEARCH\n${lines(search)}=======\n${lines(replace)}>>>>>>> REPLACE\n\`\`\`\n`;
}

/** An answer: a line of explanation and its blocks. */
export function say(prose: string, ...blocks: string[]): ScriptStep {
  return { content: `${prose}\n\n${blocks.join('\n')}` };
}

export function turnFor(n: number, cwd: string): ModelTurn {
  return {
    n,
    cwd,
    read: (rel) => {
      try {
        return fs.readFileSync(path.join(cwd, rel), 'utf8');
      } catch {
        return null;
      }
    },
  };
}

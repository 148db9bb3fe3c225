// The runner a test command starts — `mocha`, `npx mocha`, `npm test` whose script runs mocha — is a hint for reading
// its output: a runner that dies before it reports anything of its own (mocha 8 and 9 print only Node's stack trace
// when a file does not load) is still read by its own parser, so the loop sees a load error it can fix instead of an
// output it cannot read. A hint never outranks what the output itself shows (a TAP reporter under mocha reads as TAP).
import type { RunnerFormat } from '../ports/verifier';
import { RUNNER_STARTS } from './targeted/runnerStarts';
import type { RunnerFamily } from './targeted/runnerStarts';
import { scriptCall } from './targeted/scripts';
import type { Scripts } from './targeted/scripts';
import { splitCommand } from './targeted/words';
import type { Words } from './targeted/words';

// node --test prints TAP when its output is not a terminal (node 20).
const FORMATS_OF: Record<RunnerFamily, RunnerFormat[]> = {
  node: ['node', 'tap'], mocha: ['mocha'], jest: ['jest'], vitest: ['vitest'], pytest: ['pytest'], unittest: ['unittest'], go: ['go'], cargo: ['cargo'],
};
const FAMILIES = Object.keys(RUNNER_STARTS) as RunnerFamily[];
// Deep enough for "test" → "test:unit" → "mocha …"; scripts that call each other in a loop end here.
const MAX_DEPTH = 6;

/** The formats of the runners the command (with the package.json scripts it calls) starts. */
export function runnerHints(command: string, scripts: Scripts | null): RunnerFormat[] {
  const hints = new Set<RunnerFormat>();
  const visit = (text: string, depth: number): void => {
    for (const words of commandWords(text)) {
      const call = scriptCall(words);
      const body = call ? scripts?.[call.name] : undefined;
      if (call && typeof body === 'string' && depth < MAX_DEPTH) visit(body, depth + 1);
      const plain = words.map(withoutVersion);
      for (let i = 0; i < plain.length; i++) {
        for (const family of FAMILIES) if (RUNNER_STARTS[family](plain, i) !== null) FORMATS_OF[family].forEach((f) => hints.add(f));
      }
    }
  };
  visit(command, 0);
  return [...hints];
}

/** The command's words; one the strict splitter refuses (a pipe, a `;`, a redirection) is cut at its operators. */
function commandWords(command: string): Words[] {
  const split = splitCommand(command.trim());
  if (split.ok) return split.commands;
  return command
    .split(/&&|\|\||[;|&\n()<>]/)
    .map((part) => part.trim().split(/\s+/).map((w) => w.replace(/^['"]+|['"]+$/g, '')).filter((w) => w !== ''))
    .filter((words) => words.length > 0);
}

/** `npx mocha@8` runs mocha. */
function withoutVersion(word: string): string {
  return /^[^@]+@[\w.^~<>=*-]+$/.test(word) ? word.slice(0, word.indexOf('@')) : word;
}

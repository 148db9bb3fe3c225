// `npm test`, `pnpm run unit`, `yarn test`: the script a package manager would run, inlined, so that the runner's
// own selection flags land on the runner (`npm test -- FILE` puts FILE after the script's own file arguments, where
// `node --test test/ FILE` reads it as one more file) and so the chain around the runner can be seen.
import { quoteWord, splitCommand } from '../../base/commandWords';
import type { Words } from '../../base/commandWords';

export type Scripts = Readonly<Record<string, unknown>>;

export type Inlined = { ok: true; commands: Words[]; inlined: boolean } | { ok: false; why: string };

// Deep enough for "test" → "test:unit" → "mocha …"; a loop of scripts calling each other ends here.
const MAX_DEPTH = 6;

/** The chain with every package-manager script call replaced by the script's own commands. */
export function inlineScripts(commands: readonly Words[], scripts: Scripts | null | undefined, depth = 0): Inlined {
  const out: Words[] = [];
  let inlined = false;
  for (const words of commands) {
    const call = scriptCall(words);
    if (call === null) {
      out.push(words);
      continue;
    }
    if (depth >= MAX_DEPTH) return { ok: false, why: `package.json scripts call each other more than ${MAX_DEPTH} deep` };
    const body = scripts?.[call.name];
    if (typeof body !== 'string' || !body.trim()) return { ok: false, why: `package.json has no "${call.name}" script to read` };
    // npm runs pre<name> first and post<name> after (pnpm and yarn 2+ do not by default, yarn 1 does). A pre script
    // may build what the tests load, so it stays; a post script runs after the tests and cannot change them.
    const pre = call.manager === 'npm' || call.manager === 'yarn' ? scripts?.[`pre${call.name}`] : undefined;
    const parts: string[] = [];
    if (typeof pre === 'string' && pre.trim()) parts.push(pre);
    parts.push(call.extra.length ? `${body} ${call.extra.map(quoteWord).join(' ')}` : body);
    for (const part of parts) {
      const split = splitCommand(part);
      if (!split.ok) return { ok: false, why: `its "${call.name}" script cannot be read: ${split.why}` };
      const nested = inlineScripts(split.commands, scripts, depth + 1);
      if (!nested.ok) return nested;
      out.push(...nested.commands);
    }
    inlined = true;
  }
  return { ok: true, commands: out, inlined };
}

export interface ScriptCall {
  manager: 'npm' | 'pnpm' | 'yarn';
  name: string;
  /** Arguments the manager passes on to the script. */
  extra: string[];
}

const NPM_BUILTIN_SHORT: Record<string, string> = { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop', restart: 'restart' };

export function scriptCall(words: Words): ScriptCall | null {
  const [program, ...rest] = words;
  if (program !== 'npm' && program !== 'pnpm' && program !== 'yarn') return null;
  const dashes = rest.indexOf('--');
  const afterDashes = dashes >= 0 ? rest.slice(dashes + 1) : [];
  // Manager options before `--` (`npm --silent test`) only change the manager's own output.
  const before = (dashes >= 0 ? rest.slice(0, dashes) : rest).filter((w) => !w.startsWith('-'));
  let name: string | undefined;
  let extraBefore: string[] = [];
  if (program === 'npm') {
    if (before[0] === 'run' || before[0] === 'run-script' || before[0] === 'rum' || before[0] === 'urn') {
      name = before[1];
      extraBefore = before.slice(2);
    } else if (before[0] !== undefined && NPM_BUILTIN_SHORT[before[0]]) {
      name = NPM_BUILTIN_SHORT[before[0]];
      extraBefore = before.slice(1);
    } else return null;
  } else {
    // pnpm and yarn run a script by its bare name too (`pnpm test`, `yarn unit`); `exec`/`dlx` and friends are not scripts.
    if (before[0] === 'run') {
      name = before[1];
      extraBefore = before.slice(2);
    } else if (before[0] !== undefined && !['exec', 'dlx', 'x', 'install', 'add', 'node', 'workspace', 'workspaces'].includes(before[0])) {
      name = before[0];
      extraBefore = before.slice(1);
    } else return null;
  }
  if (!name) return null;
  return { manager: program, name, extra: [...extraBefore, ...afterDashes] };
}

// The test command narrowed to the tests failing in the best state, by file and by name, with the runner's own
// selection — or one sentence saying why it cannot be, so the caller runs the whole suite. Pure: a command, the
// targets and the workspace's package.json scripts in, a command out.
import type { RunnerFormat } from '../../ports/verifier';
import { fileFromMochaStack } from './args';
import type { TargetTest } from './args';
import { narrowJest, narrowMocha, narrowNode, narrowVitest } from './jsRunners';
import type { RunnerNarrowing } from './jsRunners';
import { narrowCargo, narrowGo, narrowPytest } from './nativeRunners';
import { narrowUnittest } from './unittest';
import { inlineScripts } from './scripts';
import type { Scripts } from './scripts';
import { joinCommand, splitCommand } from './words';
import { RUNNER_STARTS } from './runnerStarts';
import type { RunnerFamily } from './runnerStarts';
import type { Words } from './words';

export type { TargetTest } from './args';

export interface TargetedRequest {
  /** The test command as the verifier runs it. */
  testCommand: string;
  /** The runner the last whole-suite run was read as. */
  runner: RunnerFormat | null;
  /** The failing tests of the best state. */
  targets: readonly TargetTest[];
  /** The workspace's package.json "scripts", for `npm test` and friends; null when it has none. */
  scripts?: Scripts | null;
  /** Workspace-relative files, where a runner names a failing test's file by its base name only (go). */
  files?: readonly string[];
  /** Changes the runner's words (up to and including the runner) and its narrowed arguments: how coverage is added. */
  wrapRunner?: (family: RunnerFamily, prefix: Words, args: Words) => { prefix: Words; args: Words } | null;
}

export type Targeted =
  | {
      ok: true;
      command: string;
      /** Folders (workspace-relative) to put first on PATH: a package manager's script sees node_modules/.bin there. */
      pathDirs: string[];
      /** What the run is limited to: files (or go packages), or null when only names narrow it. */
      files: string[] | null;
      /** The name selection handed to the runner (a pattern, node ids or names). */
      selection: string;
      /** How many distinct tests were asked for. */
      tests: number;
    }
  | { ok: false; why: string };

// node --test prints TAP when its output is not a terminal (node 20), so "tap" may be the node runner.
const STARTS_FOR: Partial<Record<RunnerFormat, RunnerFamily>> = { tap: 'node', node: 'node', mocha: 'mocha', jest: 'jest', vitest: 'vitest', pytest: 'pytest', unittest: 'unittest', go: 'go', cargo: 'cargo' };

export function narrowToTargets(req: TargetedRequest): Targeted {
  if (req.targets.length === 0) return { ok: false, why: 'there are no failing tests to run first' };
  if (req.runner === null) return { ok: false, why: 'the runner of the last whole-suite run is not known' };
  const family = STARTS_FOR[req.runner];
  if (!family) return { ok: false, why: `Greenloop knows no way to select tests for ${req.runner} output` };
  const split = splitCommand(req.testCommand.trim());
  if (!split.ok) return { ok: false, why: split.why };
  const inlined = inlineScripts(split.commands, req.scripts);
  if (!inlined.ok) return { ok: false, why: inlined.why };
  const commands = inlined.commands;

  const found: Array<{ index: number; start: number }> = [];
  commands.forEach((words, index) => {
    for (let i = 0; i < words.length; i++) {
      const start = RUNNER_STARTS[family](words, i);
      if (start !== null) {
        found.push({ index, start });
        return;
      }
    }
  });
  if (found.length === 0) return { ok: false, why: `the command does not run ${family} where Greenloop can see it` };
  if (found.length > 1) return { ok: false, why: `the command runs ${family} ${found.length} times` };
  const { index, start } = found[0];
  const words = commands[index];
  const narrowed = narrowRunner(req.runner, family, words.slice(start), req, words[start - 1]);
  if ('why' in narrowed) return { ok: false, why: narrowed.why };
  // Commands before the runner stay (a build the tests load); those after it ran on the tests' results only.
  const plain = { prefix: words.slice(0, start), args: narrowed.args };
  const run = req.wrapRunner?.(family, plain.prefix, plain.args) ?? plain;
  const chain = [...commands.slice(0, index), [...run.prefix, ...run.args]];
  return {
    ok: true,
    command: joinCommand(chain),
    pathDirs: inlined.inlined ? ['node_modules/.bin'] : [],
    files: narrowed.files,
    selection: narrowed.pattern,
    tests: new Set(req.targets.map((t) => t.id)).size,
  };
}

/** `started`: the word that started the runner (`unittest`, or `test` after Django's manage.py). */
function narrowRunner(runner: RunnerFormat, family: RunnerFamily, args: Words, req: TargetedRequest, started: string): RunnerNarrowing | { why: string } {
  switch (family) {
    case 'node': return narrowNode(args, req.targets);
    case 'mocha': return narrowMocha(args, req.targets.map((t) => (t.file ? t : { ...t, file: fileFromMochaStack(t.message, req.files) })));
    case 'jest': return narrowJest(args, req.targets);
    case 'vitest': return narrowVitest(args, req.targets);
    case 'pytest': return narrowPytest(args, req.targets);
    case 'unittest': return narrowUnittest(args, req.targets, req.testCommand, started === 'test');
    case 'go': return narrowGo(args, req.targets, req.files);
    case 'cargo': return narrowCargo(args, req.targets);
    default: return { why: `Greenloop knows no way to select tests for ${runner} output` };
  }
}

// The test command narrowed to the tests failing in the best state, by file and by name, with the runner's own
// selection — or one sentence saying why it cannot be, so the caller runs the whole suite. Pure: a command, the
// targets and the workspace's package.json scripts in, a command out.
import type { RunnerFormat } from '../ports/verifier';
import type { TargetTest } from './common/args';
import { inlineScripts } from './common/scripts';
import type { Scripts } from './common/scripts';
import { joinCommand, splitCommand } from '../base/commandWords';
import type { Words } from '../base/commandWords';
import { runnerOfFormat } from './registry';
import type { Runner } from './runner';

export type { TargetTest } from './common/args';

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
  /** The runners to choose from: the registry's (a test gives its own). */
  runners?: readonly Runner[];
  /** Changes the runner's words (up to and including the runner) and its narrowed arguments: how coverage is added. */
  wrapRunner?: (runner: string, prefix: Words, args: Words) => { prefix: Words; args: Words } | null;
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

export function narrowToTargets(req: TargetedRequest): Targeted {
  if (req.targets.length === 0) return { ok: false, why: 'there are no failing tests to run first' };
  if (req.runner === null) return { ok: false, why: 'the runner of the last whole-suite run is not known' };
  // The room whose output this is: node --test prints TAP when its output is not a terminal (node 20), so "tap" is node's.
  const runner = runnerOfFormat(req.runner, req.runners);
  if (!runner) return { ok: false, why: `Greenloop knows no way to select tests for ${req.runner} output` };
  const family = runner.name;
  const split = splitCommand(req.testCommand.trim());
  if (!split.ok) return { ok: false, why: split.why };
  const inlined = inlineScripts(split.commands, req.scripts);
  if (!inlined.ok) return { ok: false, why: inlined.why };
  const commands = inlined.commands;

  const found: Array<{ index: number; start: number }> = [];
  commands.forEach((words, index) => {
    for (let i = 0; i < words.length; i++) {
      const start = runner.startsAt(words, i);
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
  const narrowed = runner.code().narrow(words.slice(start), req.targets, { files: req.files, command: req.testCommand, prefix: words.slice(0, start) });
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

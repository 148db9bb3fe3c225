// Gradle narrowed with its own test filter: one `--tests Class.method` per selected method after each test task of
// the command (`test`, `:core:test`, `integrationTest`), the class by its simple name (Gradle 4.7+ matches a pattern
// that starts with a capital against the simple name; a nested class is `Outer$Inner`). A parameterized method runs
// whole (the filter selects methods); a test named by a display name selects its class. A build of several projects
// is not narrowed: Gradle fails the test task of every project where the filter matches nothing ("No tests found for
// given includes"), and the command cannot say to skip them.
import { titles, unique } from '../common/args';
import type { TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const METHOD = /^([\p{L}_$][\p{L}\p{N}_$]*)(?:\(.*\))?(?:\[\d+\])?$/u;
const CLASS = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
// Gradle's options whose value is the next word.
const VALUED = new Set(['-x', '--exclude-task', '-p', '--project-dir', '-c', '--settings-file', '-b', '--build-file', '-g', '--gradle-user-home', '-I', '--init-script', '--console', '--warning-mode', '--max-workers', '--priority', '--include-build', '--project-cache-dir']);

/** `test`, `:core:test`, `integrationTest`, `testDebugUnitTest`: the tasks that take --tests. */
function isTestTask(word: string): boolean {
  if (word.startsWith('-')) return false;
  const name = word.slice(word.lastIndexOf(':') + 1);
  return name === 'test' || /^[a-z][\w]*Test$/.test(name);
}

/** A build script below the root: the workspace is a build of several projects. */
function subprojectScript(files: readonly string[] | undefined): string | undefined {
  return files?.find((f) => /\/build\.gradle(?:\.kts)?$/.test(f) && !/(^|\/)(build|\.gradle|buildSrc)\//.test(f));
}

export function narrowGradle(args: readonly string[], targets: readonly TargetTest[], files?: readonly string[]): RunnerNarrowing | { why: string } {
  const sub = subprojectScript(files);
  if (sub) return { why: `this is a build of several Gradle projects (${sub}): Gradle fails each project's test task whose --tests filter matches nothing` };
  const selections: string[] = [];
  for (const t of targets) {
    const parts = titles(t.id);
    if (parts.length < 2) return { why: `"${t.id}" names no class for Gradle's --tests` };
    const classes = parts.slice(0, -1);
    if (!classes.every((c) => CLASS.test(c))) return { why: `"${t.id}" is not a class and test name Gradle's --tests can select` };
    const method = METHOD.exec(parts[parts.length - 1]);
    const cls = classes.join('$');
    selections.push(method ? `${cls}.${method[1]}` : cls);
  }
  const chosen = unique(selections);
  // Drop the command's own --tests (and its value); add ours after each test task.
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--tests') i++;
    else if (!args[i].startsWith('--tests=')) kept.push(args[i]);
  }
  // A word after an option that takes a value is that value (`-x test` excludes the task), never a task.
  const task = kept.map((a, i) => isTestTask(a) && !(i > 0 && VALUED.has(kept[i - 1])));
  if (!task.includes(true)) return { why: 'the command names no test task for --tests to follow (it runs `build` or `check`)' };
  const out = kept.flatMap((a, i) => (task[i] ? [a, ...chosen.flatMap((s) => ['--tests', s])] : [a]));
  return { args: out, files: null, pattern: chosen.join(' ') };
}

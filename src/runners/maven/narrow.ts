// Maven narrowed with Surefire's own selection: -Dtest=Class$Nested#method+other,Other#m, and -Dit.test for Failsafe
// when the command reaches its goals. A parameterized method runs whole (Surefire selects no invocation); a test
// named by a display name selects its class. Every module runs the selection, so the modules where it matches nothing
// must not fail the build: failIfNoSpecifiedTests (Surefire and Failsafe 2.12 to 3.x) says so.
import { titles, unique } from '../common/args';
import type { TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const DROPPED = /^-D(?:test|it\.test|surefire\.failIfNoSpecifiedTests|failsafe\.failIfNoSpecifiedTests|failIfNoTests|it\.failIfNoSpecifiedTests)(?:=|$)/;
const METHOD = /^([\p{L}_$][\p{L}\p{N}_$]*)(?:\(.*\))?(?:\[\d+\])?$/u;
const CLASS = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
// Goals that run Failsafe's integration tests.
const IT_GOALS = new Set(['integration-test', 'verify', 'install', 'deploy', 'failsafe:integration-test']);

export function narrowMaven(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  // Class (with its nested classes) → methods, or null when the whole class runs.
  const byClass = new Map<string, Set<string> | null>();
  for (const t of targets) {
    const parts = titles(t.id);
    if (parts.length < 2) return { why: `"${t.id}" names no class for Surefire's -Dtest` };
    const last = parts[parts.length - 1];
    const method = METHOD.exec(last);
    const classes = parts.slice(0, -1);
    if (!classes.every((c) => CLASS.test(c))) return { why: `"${t.id}" is not a class and test name Surefire's -Dtest can select` };
    const cls = classes.join('$');
    const known = byClass.get(cls);
    if (!method) byClass.set(cls, null);
    else if (known !== null) byClass.set(cls, (known ?? new Set<string>()).add(method[1]));
  }
  const selection = [...byClass].map(([cls, methods]) => (methods ? `${cls}#${unique([...methods]).join('+')}` : cls)).join(',');
  const kept = args.filter((a) => !DROPPED.test(a));
  const failsafe = args.some((a) => IT_GOALS.has(a));
  const added = [`-Dtest=${selection}`, '-Dsurefire.failIfNoSpecifiedTests=false'];
  if (failsafe) added.push(`-Dit.test=${selection}`, '-Dfailsafe.failIfNoSpecifiedTests=false');
  return { args: [...kept, ...added], files: null, pattern: selection };
}

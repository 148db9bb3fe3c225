// Parts of shared files that define how the tests run: the test script in package.json, the pytest section of
// pyproject.toml / setup.cfg / tox.ini (the runners' rooms name them), and the checkers' sections. A model that changes
// them can make a suite pass by running less of it, so they are protected like test files while the rest of the file
// stays editable.
import { sectionsMatching } from '../../base/iniSections';
import { CHECKER_SECTION_RULES, packageScriptsPart } from '../../shared/checkerConfigs';
import { runnerProtectedParts } from '../../runners/registry';
import type { ProtectedPart } from '../../runners/runner';

/** The runners' parts (package.json's test scripts and settings, pytest's sections): each room names its own. */
export const PROTECTED_PARTS: readonly ProtectedPart[] = runnerProtectedParts();

/** The checkers' sections of shared files ([tool.mypy], [lints]…), protected like the test runners' ones. */
export const CHECKER_PARTS: readonly ProtectedPart[] = CHECKER_SECTION_RULES.map((r) => ({ file: r.file, what: r.what, extract: sectionsMatching(r.sections) }));

/** The package.json scripts the check commands run (`npm run lint` → lint, prelint, postlint). */
function checkScriptParts(names: readonly string[]): ProtectedPart[] {
  if (names.length === 0) return [];
  return [{ file: 'package.json', what: `the scripts the check commands run (${names.filter((n) => !/^(pre|post)/.test(n)).join(', ')}) in package.json`, extract: (t) => packageScriptsPart(t, names) }];
}

/** Every protected part of a shared file: the test runners', the checkers', and the check commands' scripts. */
export function protectedParts(checkScripts: readonly string[] = []): ProtectedPart[] {
  return [...PROTECTED_PARTS, ...CHECKER_PARTS, ...checkScriptParts(checkScripts)];
}

/**
 * Why changing `before` into `after` at `rel` is refused, or null when no protected part changed. A file that
 * cannot be parsed after the edit (broken JSON) counts as changed: the runner would not read it either.
 * `checkScripts`: the package.json scripts the check commands run.
 */
export function protectedPartChange(rel: string, before: string | null, after: string | null, checkScripts: readonly string[] = []): string | null {
  const name = rel.split('/').pop() ?? rel;
  for (const part of protectedParts(checkScripts).filter((p) => p.file === name)) {
    const refusal = partChange(rel, part, before, after);
    if (refusal) return refusal;
  }
  return null;
}

function partChange(rel: string, part: ProtectedPart, before: string | null, after: string | null): string | null {
  const was = before === null ? null : part.extract(before);
  const now = after === null ? null : part.extract(after);
  if (before === null && after !== null && now !== null && isEmptyPart(now)) return null;
  if (was === now && was !== null) return null;
  if (was === null && now === null) return null;
  const decides = PROTECTED_PARTS.includes(part) ? 'what the tests run' : 'what the checkers report';
  return `${rel}: the edit changes ${part.what}, which decides ${decides}; fix the code under test instead.`;
}

function isEmptyPart(extracted: string): boolean {
  // A check script's part of a package.json that defines none of the scripts: [["lint",null],…].
  return extracted === '[[],[]]' || extracted === '[]' || /^\[(?:\["[^"]*",null\],?)*\]$/.test(extracted);
}

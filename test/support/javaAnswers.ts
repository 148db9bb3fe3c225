// Scripted model answers for the java-semver fixture with its one bug (a pre-release sorted after its release): the fix,
// and a "fix" that weakens the failing test instead, which the protected-file rule must refuse.
import { edit } from './calcAnswers';

export const VERSION_JAVA = 'src/main/java/org/example/semver/Version.java';
export const VERSION_TEST = 'src/test/java/org/example/semver/VersionTest.java';
export const FIXED_LINE = 'return pre.isEmpty() ? (o.pre.isEmpty() ? 0 : 1) : -1;';
export const BUGGY_LINE = 'return pre.isEmpty() ? (o.pre.isEmpty() ? 0 : -1) : 1;';

/** The fixture's Version.java with the bug put in (as regenerate/maven.sh's BUG1 does). */
export function withBug(source: string): string {
  if (!source.includes(FIXED_LINE)) throw new Error('Version.java changed: the bug no longer applies');
  return source.replace(FIXED_LINE, BUGGY_LINE);
}

export const FIX_VERSION = edit(VERSION_JAVA, `      ${BUGGY_LINE}`, `      ${FIXED_LINE}`, 'A pre-release must sort before its release; the signs are swapped.');
export const WEAKEN_VERSION_TEST = edit(
  VERSION_TEST,
  '      "1.0.0-alpha, 1.0.0",\n',
  '',
  'The pre-release case is wrong; I drop it.',
);

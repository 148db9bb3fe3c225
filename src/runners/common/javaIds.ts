// The Java test ID rule, one for Maven Surefire/Failsafe and Gradle, read from their consoles and from their JUnit XML:
// the class's simple name (no package), each nested class after it, then the test's name, " > " between them. A
// method's parameter types are written in parentheses — Surefire 2.22 writes `comparesByPrecedence{String, String}[6]`,
// JUnit's legacy name (Gradle, Surefire 3) `comparesByPrecedence(String, String)[6]` — and a method without
// parameters has none: `parsesThreeParts()` (Gradle) and `parsesThreeParts` (Surefire) are one test.
//   org.example.VersionTest$Ordering + comparesByPrecedence{String, String}[6] → VersionTest > Ordering > comparesByPrecedence(String, String)[6]
// A name that is no method (a @DisplayName Surefire 3 or Gradle reports) is kept as written.
import type { JunitCase, JunitDialect } from '../runner';

/** `org.example.VersionTest$Ordering` → [`VersionTest`, `Ordering`]. */
export function javaClassTitles(className: string): string[] {
  const [outer, ...nested] = className.trim().split('$');
  const simple = outer.slice(outer.lastIndexOf('.') + 1);
  return [simple, ...nested].filter((t) => t !== '');
}

const METHOD = /^([\p{L}_$][\p{L}\p{N}_$]*)(?:\{([^{}]*)\}|\(([^()]*)\))(\[\d+\])?$/u;

/** `m{String, int}[2]` → `m(String, int)[2]`; `m()` and `m{}` → `m`; anything else as written. */
export function javaTestName(name: string): string {
  const n = name.trim();
  const m = METHOD.exec(n);
  if (!m) return n;
  const params = (m[2] ?? m[3] ?? '').trim();
  return `${m[1]}${params ? `(${params})` : ''}${m[4] ?? ''}`;
}

export function javaTestId(className: string, name: string): string {
  return [...javaClassTitles(className), javaTestName(name)].join(' > ');
}

/**
 * A test class's source file as the build lays it out (`src/test/java/org/example/VersionTest.java`), under its module's
 * folder when known; null for a class without a package.
 */
export function javaTestFile(className: string, root = '', sourceDir = 'src/test/java'): string {
  const outer = className.trim().split('$')[0];
  const rel = `${sourceDir}/${outer.replace(/\./g, '/')}.java`;
  return root ? `${root.replace(/\/+$/, '')}/${rel}` : rel;
}

/** Surefire's and Gradle's JUnit XML: classname is the (nested) class, name the method or display name. */
export const javaJunitDialect: JunitDialect = {
  id: (t: JunitCase) => javaTestId(t.classname || t.suite, t.name),
  file: (t: JunitCase) => (t.classname ? javaTestFile(t.classname) : undefined),
};

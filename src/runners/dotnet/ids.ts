// A .NET test's name → the contract's title path: `Namespace.Class > Method(args)`, a nested class one part more
// (`Ledger.Tests.MoneyTests > Formatting > KeepsTheSign(cents: -5, expected: "-0.05")`: the runtime's `+` between a
// class and the class it is nested in). Every report names the test by its display name — xUnit's is the full name
// with the arguments (`Ns.Class+Nested.Method(a: 1)`), NUnit's and MSTest's the method alone (`Method(1,2)`) — and,
// where it can, by the class apart (TRX's className, the JUnit logger's classname, a console stack frame).
import type { JunitCase, JunitDialect } from '../runner';

/** `Ns.Class+Nested` and a display name → the ID. */
export function dotnetId(className: string, displayName: string): string {
  const method = className && displayName.startsWith(`${className}.`) ? displayName.slice(className.length + 1) : displayName;
  return className ? [...className.split('+'), method].join(' > ') : method;
}

/** A full display name (`Ns.Class+Nested.Method(a: "x.y")`) split at the last dot before its arguments. */
export function splitDisplayName(name: string): { className: string; method: string } {
  const paren = name.indexOf('(');
  const head = paren < 0 ? name : name.slice(0, paren);
  const dot = head.lastIndexOf('.');
  return dot < 0 ? { className: '', method: name } : { className: name.slice(0, dot), method: name.slice(dot + 1) };
}

/** The parts of an ID: the class as .NET names it (`Ns.Class+Nested`), the method, its arguments (or ''). */
export function parseDotnetId(id: string): { className: string; method: string; args: string } | null {
  const parts = id.split(' > ');
  if (parts.length < 2) return null;
  const last = parts[parts.length - 1];
  const m = /^([A-Za-z_][\w`]*)\s*(\(.*\))?$/s.exec(last);
  if (!m) return null;
  return { className: parts.slice(0, -1).join('+'), method: m[1], args: m[2] ?? '' };
}

/** The JUnit logger: classname `Ns.Class+Nested`, name the display name (xUnit's starts with the classname). */
export const dotnetJunit: JunitDialect = {
  id: (test: JunitCase) => dotnetId(test.classname, test.name),
};

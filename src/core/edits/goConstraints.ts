// Go build constraints judged as the go command judges them on this machine: `//go:build` expressions (&&, ||, !,
// parentheses) and the older `// +build` lines (space: or, comma: and). A constraint that is false here makes go vet
// and the build skip the file, so whatever it holds is out of the checker's view.

export interface GoBuildContext {
  goos: string;
  goarch: string;
  /** cgo is enabled (CGO_ENABLED is not 0). */
  cgo: boolean;
}

const GOOS: Record<string, string> = { win32: 'windows', sunos: 'solaris', cygwin: 'windows' };
const GOARCH: Record<string, string> = { x64: 'amd64', ia32: '386', x32: '386', ppc64: 'ppc64le', mipsel: 'mipsle' };
const UNIX = new Set(['aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'linux', 'netbsd', 'openbsd', 'solaris']);

/** Where the checker runs: GOOS/GOARCH from the environment when set (as go reads them), else this machine's. */
export function hostBuildContext(env: NodeJS.ProcessEnv = process.env): GoBuildContext {
  return {
    goos: env.GOOS || GOOS[process.platform] || process.platform,
    goarch: env.GOARCH || GOARCH[process.arch] || process.arch,
    cgo: env.CGO_ENABLED !== '0',
  };
}

/**
 * Whether a tag is set. Custom tags (`ignore`, `integration`, `tools`) are not: the check commands' `-tags` are not
 * read, and a tag set only there would still leave the file out of the tests' build. Release tags (`go1.21`) are.
 */
function tagHolds(tag: string, ctx: GoBuildContext): boolean {
  if (tag === ctx.goos || tag === ctx.goarch || tag === 'gc') return true;
  // GOOS=android also satisfies linux, GOOS=illumos solaris, GOOS=ios darwin (go/build's rule).
  if ((tag === 'linux' && ctx.goos === 'android') || (tag === 'solaris' && ctx.goos === 'illumos') || (tag === 'darwin' && ctx.goos === 'ios')) return true;
  if (tag === 'unix') return UNIX.has(ctx.goos);
  if (tag === 'cgo') return ctx.cgo;
  return /^go1(?:\.\d+)?$/.test(tag);
}

/** The expression of a `//go:build` line, or the tags of a `// +build` line; an expression go cannot read is false. */
export function goConstraintHolds(expr: string, ctx: GoBuildContext, syntax: 'go:build' | '+build'): boolean {
  if (syntax === '+build') {
    return expr.trim().split(/\s+/).some((option) => option.split(',').every((term) => {
      const negated = term.startsWith('!');
      const tag = negated ? term.slice(1) : term;
      return /^[\w.]+$/.test(tag) && tagHolds(tag, ctx) !== negated;
    }));
  }
  const tokens = expr.match(/&&|\|\||[!()]|[\w.]+|\S/g) ?? [];
  let i = 0;
  const fail = (): never => {
    throw new SyntaxError(expr);
  };
  const or = (): boolean => {
    let v = and();
    while (tokens[i] === '||') {
      i++;
      v = and() || v;
    }
    return v;
  };
  const and = (): boolean => {
    let v = not();
    while (tokens[i] === '&&') {
      i++;
      v = not() && v;
    }
    return v;
  };
  const not = (): boolean => {
    const t = tokens[i++];
    if (t === '!') return !not();
    if (t === '(') {
      const v = or();
      if (tokens[i++] !== ')') fail();
      return v;
    }
    if (t === undefined || !/^[\w.]+$/.test(t)) return fail();
    return tagHolds(t, ctx);
  };
  try {
    const v = or();
    return i === tokens.length ? v : false;
  } catch {
    return false;
  }
}

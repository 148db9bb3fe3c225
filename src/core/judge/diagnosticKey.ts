// The judge's identity of a diagnostic: it survives edits elsewhere in the file (line numbers shift whenever the
// model adds or removes lines), so a diagnostic that only moved is neither fixed nor new.
import type { Diagnostic } from '../../ports/verifier';

function normalizePath(p: string, cwd?: string): string {
  let out = p.replace(/\\/g, '/');
  if (cwd) {
    const root = cwd.replace(/\\/g, '/').replace(/\/+$/, '') + '/';
    out = out.split(root).join('');
  }
  return out.replace(/^\.\//, '');
}

/**
 * Identity of a diagnostic for progress/regression comparisons: file + source + code + message, never line or
 * column. A diagnostic without a source was tsc's (runs saved before other checkers), so old and new compare equal.
 * Whitespace is collapsed and the workspace root is cut from paths (given cwd), so the same error reported
 * from another checkout or after a re-wrap compares equal.
 */
export function diagnosticKey(d: Diagnostic, cwd?: string): string {
  const file = normalizePath(d.file, cwd);
  const message = normalizePath(d.message, cwd).replace(/\s+/g, ' ').trim();
  return `${file}|${d.source ?? 'tsc'}|${d.code}|${message}`;
}

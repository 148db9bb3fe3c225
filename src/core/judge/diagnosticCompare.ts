// Diagnostics compared as a multiset keyed by diagnosticKey (file, source, code, message — not the line, which shifts
// with every edit above it): what grew and what shrank between two verified states.
import type { WitnessSummary } from '../../ports/runState';
import { diagnosticKey } from './diagnosticKey';

/** Diagnostics as a multiset of (file, code, message): a second identical error on a new line is growth. */
export function compareDiagnostics(best: WitnessSummary, next: WitnessSummary): { grown: string[]; shrunk: string[] } {
  const count = (w: WitnessSummary) => {
    const m = new Map<string, { n: number; shown: string }>();
    for (const d of w.diagnostics) {
      const key = diagnosticKey(d);
      const e = m.get(key);
      if (e) e.n++;
      else m.set(key, { n: 1, shown: describeDiagnostic(d) });
    }
    return m;
  };
  const a = count(best);
  const b = count(next);
  const grown: string[] = [];
  const shrunk: string[] = [];
  for (const [key, { n, shown }] of b) {
    const was = a.get(key)?.n ?? 0;
    if (n > was) grown.push(was ? `${shown} (${n}× now, ${was}× before)` : shown);
  }
  for (const [key, { n, shown }] of a) {
    const now = b.get(key)?.n ?? 0;
    if (now < n) shrunk.push(now ? `${shown} (${now}× now, ${n}× before)` : shown);
  }
  return { grown, shrunk };
}

function describeDiagnostic(d: { file: string; line: number; code: string; message: string; source?: string }): string {
  const from = d.source && d.source !== 'tsc' ? `${d.source} ` : '';
  return `${d.file}:${d.line} ${from}${d.code} ${d.message.split('\n')[0]}`;
}

// `cargo check` / `cargo clippy` with --message-format=json: one JSON message per line among cargo's own text
// ("Checking …", "error: could not compile …"). Lints whose code starts "clippy::" are clippy's; the rest rustc's.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

const SEVERITY: Record<string, Severity> = { error: 'error', 'error: internal compiler error': 'error', warning: 'warning' };

/** A span's file, made workspace-relative: cargo names files relative to the workspace root, where it ran rustc. */
function primarySpan(message: Record<string, unknown>): Record<string, unknown> | null {
  const spans = Array.isArray(message.spans) ? message.spans.filter(isRecord) : [];
  return spans.find((s) => s.is_primary === true) ?? spans[0] ?? null;
}

function parseLine(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{"reason":')) return null;
  try {
    const v: unknown = JSON.parse(line);
    return isRecord(v) ? v : null;
  } catch {
    return null;
  }
}

export const cargoJsonReader: CheckerReader = {
  format: 'cargo-json',
  tool: 'cargo (--message-format=json)',
  silentWhenClean: false,

  detect(text) {
    return /^\{"reason":"(?:compiler-message|compiler-artifact|build-finished|build-script-executed)"/m.test(sample(text)) ? 0.95 : 0;
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    const checked = new Set<string>();
    const seen = new Set<string>();
    let messages = 0;
    for (const raw of text.split('\n')) {
      const msg = parseLine(raw.trimEnd());
      if (!msg) continue;
      messages++;
      // Only the workspace's own crates: a dependency's root file is not the person's code.
      const local = str(msg.package_id).startsWith('path+file://') || /\(path\+file:\/\//.test(str(msg.package_id));
      const target = isRecord(msg.target) ? msg.target : null;
      if (local && target && str(target.src_path)) checked.add(workspacePath(str(target.src_path), opts.cwd));
      if (msg.reason !== 'compiler-message' || !isRecord(msg.message)) continue;
      const m = msg.message;
      const severity = SEVERITY[str(m.level)];
      if (!severity) continue; // notes, help, "For more information…" (failure-note)
      const code = isRecord(m.code) ? str(m.code.code) : '';
      const span = primarySpan(m);
      // "aborting due to N previous errors" repeats the errors already counted.
      if (!span && !code && /^aborting due to/.test(str(m.message))) continue;
      const d: CheckerDiagnostic = {
        file: span ? workspacePath(str(span.file_name), opts.cwd) : '',
        line: span ? num(span.line_start) : 0,
        column: span ? num(span.column_start) : 0,
        source: code.startsWith('clippy::') ? 'clippy' : 'rustc',
        code,
        message: str(m.message),
        severity,
      };
      // The same finding reported once per target (lib and its tests) is one finding.
      const key = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      all.push(d);
    }
    if (messages === 0) return { ok: false, reason: 'it has no cargo JSON message (cargo check --message-format=json prints one per line)' };
    return { ok: true, report: makeReport('cargo-json', { all, checked }, opts) };
  },
};

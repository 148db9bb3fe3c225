// Writes a value as JSON a megabyte at a time. A saved run that names a million tests is 70 MB of JSON: built by
// JSON.stringify it is one string as large (and its pieces before that), copied again into a buffer to be written,
// on top of the run it describes — the largest moment of a whole `greenloop fix` (issue 30).
import * as fs from 'node:fs';

const PIECE_CHARS = 1 << 20;

/**
 * Writes the text JSON.stringify(value) would give, with every string (keys too) passed through `text` first (the
 * redactor, so no copy of the value is made to redact it), to `file`.
 */
export function writeJsonFileSync(file: string, value: unknown, text: (s: string) => string = (s) => s): void {
  const fd = fs.openSync(file, 'w');
  try {
    let pieces: string[] = [];
    let chars = 0;
    const flush = (): void => {
      const bytes = Buffer.from(pieces.join(''));
      for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done);
      pieces = [];
      chars = 0;
    };
    const put = (s: string): void => {
      pieces.push(s);
      chars += s.length;
      if (chars >= PIECE_CHARS) flush();
    };
    const write = (v: unknown): void => {
      if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON: () => unknown }).toJSON();
      if (typeof v === 'string') return put(JSON.stringify(text(v)));
      if (v === null || typeof v !== 'object') return put(JSON.stringify(v) ?? 'null');
      if (Array.isArray(v)) {
        put('[');
        for (let i = 0; i < v.length; i++) {
          if (i > 0) put(',');
          const item: unknown = v[i];
          // As JSON.stringify writes them: what JSON cannot say is null inside an array.
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') put('null');
          else write(item);
        }
        return put(']');
      }
      put('{');
      let first = true;
      for (const [key, item] of Object.entries(v)) {
        // ... and left out of an object.
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        put(first ? '' : ',');
        first = false;
        put(JSON.stringify(text(key)));
        put(':');
        write(item);
      }
      put('}');
    };
    write(value);
    flush();
  } finally {
    fs.closeSync(fd);
  }
}

// The one redactor everything Greenloop writes or sends passes through (saved runs, history, reports, prompts, logs,
// progress, the run panel): known secret values, Authorization header values and passwords in URLs become ***.
// One RegExp built once per run, so a text of megabytes is scanned once (bench/redact.bench.ts).

export const MASK = '***';
/** Shorter values are placeholders (Ollama's "ollama", a flag set to "1"); masking them would garble ordinary words. */
export const MIN_SECRET_LENGTH = 8;

export interface Redactor {
  /** The text with every secret it knows replaced by ***. */
  text(text: string): string;
  /** A copy of plain JSON data (a run state, a report) with every string in it redacted. */
  json<T>(value: T): T;
}

/** Letters either case, in a RegExp without the `i` flag (which would also make the secret literals caseless). */
function caseless(word: string): string {
  return word.replace(/[a-z]/gi, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
}

const TOKEN = '[A-Za-z0-9._~+/=-]';
/** `Authorization: Basic …`, `"authorization": "Bearer …"`, `Proxy-Authorization: Token …`: the credential after the scheme. */
const HEADER = `(${caseless('authorization')}["']?\\s{0,8}[:=]\\s{0,8}["']?(?:${['bearer', 'basic', 'token', 'digest'].map(caseless).join('|')})\\s{1,8})(${TOKEN}+)`;
/** A bearer token anywhere (curl -H lines, logged request options); only token-like words (see bearerToken). */
const BEARER = `\\b(${caseless('bearer')}\\s{1,8})(${TOKEN}{${MIN_SECRET_LENGTH},})`;
/** `scheme://user:password@host`: the password. Bounded parts keep the scan linear on long runs of text. */
const URL_PASSWORD = `(\\/\\/[^\\s/?#@:'"\`\\\\]{0,256}:)([^\\s/?#@'"\`\\\\]{1,256})(?=@)`;

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A word after "Bearer" is a token when it has a digit or a symbol; "Bearer authentication" is prose. */
function bearerToken(word: string): boolean {
  return /[^A-Za-z]/.test(word);
}

/**
 * `secrets`: values to mask wherever they appear (the model key, credential-like environment values); empty and short
 * ones are ignored. Longest first, so a secret that contains another is masked whole.
 */
export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
  const literals = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))]
    .sort((a, b) => b.length - a.length)
    .map(escapeLiteral);
  const alternatives = [literals.length ? `(${literals.join('|')})` : '(?!)()', HEADER, BEARER, URL_PASSWORD];
  const pattern = new RegExp(alternatives.join('|'), 'g');
  const replacement = (m: RegExpExecArray): string => {
    if (m[1] !== undefined) return MASK;
    if (m[2] !== undefined) return `${m[2]}${MASK}`;
    if (m[4] !== undefined) return bearerToken(m[5]) ? `${m[4]}${MASK}` : m[0];
    return `${m[6]}${MASK}`;
  };
  const text = (input: string): string => {
    pattern.lastIndex = 0;
    const chunks: string[] = [];
    let pieces: string[] = [];
    let last = 0;
    for (let m = pattern.exec(input); m; m = pattern.exec(input)) {
      pieces.push(input.slice(last, m.index), replacement(m));
      last = m.index + m[0].length;
      // Joined every few thousand pieces: hundreds of thousands of live slices make the garbage collector's work
      // grow faster than the text (bench/redact.bench.ts, the "headers" input).
      if (pieces.length >= 8192) {
        chunks.push(pieces.join(''));
        pieces = [];
      }
    }
    if (chunks.length === 0 && pieces.length === 0) return input; // nothing to mask: no copy
    pieces.push(input.slice(last));
    chunks.push(pieces.join(''));
    return chunks.join('');
  };
  const json = <T>(value: T): T => deepMap(value, text) as T;
  return { text, json };
}

function deepMap(value: unknown, text: (s: string) => string): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map((v) => deepMap(v, text));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[text(k)] = deepMap(v, text);
    return out;
  }
  return value;
}

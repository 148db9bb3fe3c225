// How fast the redactor masks a 10 MB test log, next to a plain scan and a plain copy of the same text (baselines,
// same run), and its time per MB at a tenth of the size (linear: the same), also on inputs made to make a RegExp
// backtrack.
// Run: npm run bench:redact   (prints a table; never part of npm test)
import * as fs from 'fs';
import * as path from 'path';
import { runSecrets } from '../src/base/secretEnv';

const ROOT = path.join(__dirname, '..');
const MB = Number(process.env.BENCH_MB ?? 10);
const REPEAT = 7;

/** Realistic output: captured runner logs over and over, with a planted secret of each kind every ~64 KB. */
function testLog(bytes: number, secrets: string[]): string {
  const captured = ['mocha/spec-mixed-color.txt', 'jest/default-mixed.txt', 'pytest/rA-mixed.txt', 'go/v-mixed.txt', 'node/tap-mixed.txt']
    .map((f) => fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'captured', f), 'utf8'))
    .join('\n');
  const planted = [...secrets.map((s) => `env ${s}\n`), 'Authorization: Bearer planted-bearer-123456\n', 'git push https://deploy:planted-pass-1@host/x.git\n'];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const piece = i % 16 === 0 ? planted[(i / 16) % planted.length] : captured;
    parts.push(piece);
    size += piece.length;
  }
  return parts.join('').slice(0, bytes);
}

/** Inputs that make naive patterns go quadratic: one long word, "//a:" without "@", "Bearer" without a token. */
function hostile(kind: string, bytes: number): string {
  const unit = kind === 'letters' ? 'a' : kind === 'url-like' ? '//user:pass' : 'Bearer Authorization: ';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

function bestMs(fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < REPEAT; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}

function main(): void {
  // A run's redactor: the key plus twenty credential-like variables of a busy shell.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (let i = 0; i < 20; i++) env[`SERVICE_${i}_TOKEN`] = `tok-${i}-${'x'.repeat(10 + i)}-${i * 7919}`;
  const { redactor } = runSecrets({ env, apiKey: 'sk-bench-KEY-0123456789abcdef' });
  const secrets = ['sk-bench-KEY-0123456789abcdef', env.SERVICE_3_TOKEN!, env.SERVICE_17_TOKEN!];

  const bytes = MB * 1024 * 1024;
  const text = testLog(bytes, secrets);
  const small = testLog(bytes / 10, secrets);
  const out = redactor.text(text);
  if (secrets.some((s) => out.includes(s)) || out.includes('planted-bearer') || out.includes('planted-pass')) throw new Error('a planted secret survived');

  const scan = bestMs(() => /\u0000/.test(text));
  const copy = bestMs(() => Buffer.from(text, 'utf8').toString('utf8'));
  const perMb = (ms: number, size: number) => `${(ms / (size / 1024 / 1024)).toFixed(2)} ms/MB`;
  const full = bestMs(() => redactor.text(text));
  const tenth = bestMs(() => redactor.text(small));
  const rows: [string, string][] = [
    [`plain scan (RegExp test), ${MB} MB`, `${scan.toFixed(1)} ms`],
    [`plain copy (utf8 round trip), ${MB} MB`, `${copy.toFixed(1)} ms`],
    [`redact, ${MB} MB test log (secrets, headers, URLs planted)`, `${full.toFixed(1)} ms = ${(full / scan).toFixed(1)}x scan, ${(full / copy).toFixed(2)}x copy; ${perMb(full, bytes)} (${perMb(tenth, bytes / 10)} at ${MB / 10} MB)`],
  ];
  for (const kind of ['letters', 'url-like', 'headers']) {
    const big = hostile(kind, bytes);
    const t = bestMs(() => redactor.text(big));
    const tenthText = hostile(kind, bytes / 10);
    const t10 = bestMs(() => redactor.text(tenthText));
    rows.push([`redact, ${MB} MB hostile "${kind}"`, `${t.toFixed(1)} ms = ${(t / copy).toFixed(2)}x copy; ${perMb(t, bytes)} (${perMb(t10, bytes / 10)} at ${MB / 10} MB)`]);
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
}

main();

// Child process of bench/bounds.bench.ts: asks the model server at URL once, through the real OpenAIActor, and prints
// what came back and this process's peak resident memory, as one JSON line.
// Usage: node -r tsx/cjs bench/readBodyOnce.ts URL [stream] [requestTimeoutMs]
import { OpenAIActor } from '../src/actors/openaiActor';

async function main(): Promise<void> {
  const [url, stream, timeout] = process.argv.slice(2);
  const actor = new OpenAIActor({ baseUrl: url!, model: 'bench', stream: stream === 'stream', requestTimeoutMs: Number(timeout ?? 120_000) });
  const t0 = performance.now();
  let outcome: string;
  try {
    const res = await actor.propose({ system: 'bench', prompt: 'bench', iteration: 1, cwd: process.cwd(), signal: new AbortController().signal });
    outcome = `answer of ${res.kind === 'text' ? res.text.length : 0} chars`;
  } catch (err) {
    outcome = (err as Error).message;
  }
  const ms = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ outcome, ms, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
}

void main();

// Standalone scripted model: `scriptedModelServer SCRIPT.json [--port N]` serves the script's steps as an
// OpenAI-compatible server on 127.0.0.1 and prints its base URL on stdout (for demos and e2e tests).
import { readFileSync } from 'node:fs';
import { startFakeOpenAIServer } from '../test/support/fakeOpenAIServer';
import type { ScriptStep } from '../test/support/fakeOpenAIServer';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  let port = 0;
  const portAt = args.indexOf('--port');
  if (portAt >= 0) {
    port = Number(args[portAt + 1]);
    if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port needs a number from 0 to 65535 (got ${String(args[portAt + 1])}).`);
    args.splice(portAt, 2);
  }
  const file = args[0];
  if (!file || args.length > 1) fail('Usage: scriptedModelServer SCRIPT.json [--port N]');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`Could not read the script ${file}: ${(err as Error).message.split('\n')[0]}; it must be a JSON array of steps.`);
  }
  const steps = Array.isArray(parsed) ? parsed : (parsed as { steps?: unknown })?.steps;
  if (!Array.isArray(steps)) fail(`The script ${file} must be a JSON array of steps or an object with a "steps" array.`);
  const server = await startFakeOpenAIServer(steps as ScriptStep[], {
    port,
    log: (line) => process.stderr.write(`scripted model: ${line}\n`),
  }).catch((err: Error) => fail(`Could not start the scripted model server: ${err.message}.`));
  process.stdout.write(`${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main(process.argv.slice(2));

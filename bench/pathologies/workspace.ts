// A private copy of a scenario's repository per loop, and the scripted model server that plays the scenario on it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFakeOpenAIServer } from '../../test/support/fakeOpenAIServer';
import type { FakeOpenAIServer, ScriptStep } from '../../test/support/fakeOpenAIServer';
import { turnFor } from './scenario';
import type { Scenario } from './scenario';

export interface ScenarioRun {
  /** The repository the loop works on. */
  cwd: string;
  /** A private folder next to it (state, counters). */
  dir: string;
  server: FakeOpenAIServer;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** The bench's own TypeScript in the repository's node_modules, where `npm install` would have put it. */
export function linkTypescript(root: string): void {
  fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(path.resolve(__dirname, '../../node_modules/typescript'), path.join(root, 'node_modules', 'typescript'));
  fs.symlinkSync('../typescript/bin/tsc', path.join(root, 'node_modules', '.bin', 'tsc'));
}

/** Where the checker tests keep ESLint and the other npm checkers (test/fixtures/regenerate/checkers.sh). */
export const CHECKERS_CACHE = process.env.GREENLOOP_CHECKERS_CACHE ?? path.join(os.homedir(), '.cache', 'greenloop-checkers');

/** The checkers' cache as the repository's node_modules, where `npm install` would have put ESLint. */
export function linkCheckers(root: string): void {
  fs.symlinkSync(path.join(CHECKERS_CACHE, 'node_modules'), path.join(root, 'node_modules'));
}

export async function startScenario(scenario: Scenario, way: string): Promise<ScenarioRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gl-patho-${scenario.name}-${way}-`));
  const cwd = path.join(dir, 'repo');
  writeFiles(cwd, scenario.files);
  if (scenario.typescript) linkTypescript(cwd);
  if (scenario.eslint) linkCheckers(cwd);
  const server = await startFakeOpenAIServer([], {
    respond: (req, n) => withNoise(scenario.model(turnFor(n, cwd)), Number(req.body?.n) || 1),
    countUsage: true,
    modelsStatus: scenario.modelsStatus,
  });
  const env = Object.fromEntries(Object.entries(scenario.env ?? {}).map(([k, v]) => [k, v.replace('{dir}', dir)]));
  return {
    cwd,
    dir,
    server,
    env,
    dispose: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What the model server served: every chat request (a refused one too) and the tokens it reported. */
export function served(server: FakeOpenAIServer): { requests: number; tokens: number } {
  return { requests: server.requests.length, tokens: server.tokensServed };
}

/**
 * Asked for n answers at once (`--candidates n`), the scenario's model gives its scripted answer first and n - 1 it
 * cannot use (prose without an edit): the guards must reach the same outcome with the noise as without it.
 */
function withNoise(step: ScriptStep | undefined, n: number): ScriptStep | undefined {
  if (!step || n < 2 || !('content' in step)) return step;
  return { ...step, more: Array.from({ length: n - 1 }, (_, i) => `I would need to see more of the code before changing it (${i + 1}).`) };
}

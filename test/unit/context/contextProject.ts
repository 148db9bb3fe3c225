// A small project in a temp folder, made afresh for each test of the calling describe, and the real gathering code
// over it: the context tests (each signal alone, each language, the ranked regions) share this set-up.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gatherContext } from '../../../src/core/prompt/gatherContext';
import { buildPrompt, DEFAULT_PROMPT_OPTIONS } from '../../../src/core/prompt/prompt';
import { checkReadable, isProtected, makePathPolicy, type PathPolicy } from '../../../src/core/edits/pathPolicy';
import { createCodeReader } from '../../../src/context/codeReader';
import { importReach } from '../../../src/context/imports/reach';
import { DEFAULT_LOOP_CONFIG } from '../../../src/session/loopDefaults';
import { DEFAULT_PROTECTED_GLOBS } from '../../../src/session/protectedGlobs';
import type { CodeReader } from '../../../src/ports/codeContext';
import type { RunState, WitnessSummary } from '../../../src/ports/runState';

export interface ContextProject {
  /** The project's folder, a new one per test. */
  readonly root: string;
  write(rel: string, text: string): void;
  policy(): PathPolicy;
  reader(): CodeReader;
  /** A run whose current state fails with these failures. */
  stateWith(failures: WitnessSummary['failures']): RunState;
  /** The first prompt the real gathering code and prompt builder make for the state. */
  firstPrompt(state: RunState, budgetTokens?: number): Promise<string>;
}

/** Call inside a describe: registers the temp folder's beforeEach and afterEach there. */
export function contextProject(prefix: string): ContextProject {
  let root = '';
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const policy = () => makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: [] });
  const reader = () => createCodeReader({ cwd: root, reach: importReach(root, { gate: (rel) => checkReadable(policy(), rel) }) });
  return {
    get root() {
      return root;
    },
    write(rel, text) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    },
    policy,
    reader,
    stateWith(failures) {
      const witness = { failing: failures.map((f) => f.id), failures, diagnostics: [], loadError: false, green: false, signature: 's', exitCode: 1, timedOut: false, outputExcerpt: '' };
      return {
        cwd: root, config: DEFAULT_LOOP_CONFIG, iterations: [], hints: [], grants: [], tokens: { prompt: 0, completion: 0 },
        limits: { maxIterations: 8, maxTokens: 0, maxMinutes: 0 }, startedAt: 0, elapsedBeforeMs: 0, feedback: '',
        current: { snapshot: 's', tree: 't', witness },
      } as unknown as RunState;
    },
    async firstPrompt(state, budgetTokens = 6000) {
      const p = policy();
      const context = await gatherContext({ state, policy: p, reader: reader(), budgetTokens, isProtected: (rel) => isProtected(p, rel), unrecorded: async () => [] });
      return buildPrompt(state, 0, { ...DEFAULT_PROMPT_OPTIONS, isProtected: (rel) => isProtected(p, rel), allowTestEdits: false, context });
    },
  };
}

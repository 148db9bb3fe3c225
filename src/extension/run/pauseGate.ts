// Lets the host hold the loop between steps (while a person decides about their own edit) without the core
// knowing: the actor and verifier wait at the gate before and after their work. No vscode here.
import type { Actor, ActorRequest, ActorResponse } from '../../ports/actor';
import type { Verifier, VerifyOptions } from '../../ports/verifier';
import { abortError } from '../../base/abort';
import type { Witness } from '../../ports/verifier';

export class PauseGate {
  private waiting: Promise<void> | undefined;
  private release: (() => void) | undefined;

  get paused(): boolean {
    return this.waiting !== undefined;
  }

  pause(): void {
    if (this.waiting) return;
    this.waiting = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  resume(): void {
    const release = this.release;
    this.waiting = undefined;
    this.release = undefined;
    release?.();
  }

  /** Resolves at once when open; rejects with an AbortError when the run is stopped while waiting. */
  async pass(signal?: AbortSignal): Promise<void> {
    while (this.waiting) {
      if (signal?.aborted) throw abortError(signal);
      const waiting = this.waiting;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(abortError(signal));
        signal?.addEventListener('abort', onAbort, { once: true });
        void waiting.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }
}

export function gatedActor(inner: Actor, gate: PauseGate): Actor {
  return {
    label: inner.label,
    editsWorkspace: inner.editsWorkspace,
    check: inner.check?.bind(inner),
    async propose(req: ActorRequest): Promise<ActorResponse> {
      await gate.pass(req.signal);
      const answer = await inner.propose(req);
      // The answer is applied right after this returns: hold it while the person is deciding.
      await gate.pass(req.signal);
      return answer;
    },
  };
}

export function gatedVerifier(inner: Verifier, gate: PauseGate): Verifier {
  const gated: Verifier = {
    async verify(signal?: AbortSignal, opts?: VerifyOptions): Promise<Witness> {
      await gate.pass(signal);
      return inner.verify(signal, opts);
    },
  };
  const rerun = inner.rerun?.bind(inner);
  if (rerun) {
    gated.rerun = async (ids, signal) => {
      await gate.pass(signal);
      return rerun(ids, signal);
    };
  }
  const targeted = inner.verifyTargeted?.bind(inner);
  if (targeted) {
    gated.verifyTargeted = async (targets, signal, opts) => {
      await gate.pass(signal);
      return targeted(targets, signal, opts);
    };
  }
  // A copy's runs (--candidates-parallel) wait at the same gate as the workspace's.
  const inFolder = inner.inFolder?.bind(inner);
  if (inFolder) gated.inFolder = (cwd) => gatedVerifier(inFolder(cwd), gate);
  return gated;
}

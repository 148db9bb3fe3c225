import type { ContentStep } from '../../support/fakeOpenAIServer';
import { answer } from '../../support/calcAnswers';

/**
 * A scripted answer the model gives only once the spec releases it: the model "thinks" for exactly as long as the
 * spec takes to look at what a person sees meanwhile (the status bar during a model call), however slow the machine.
 */
export function heldAnswer(content: string): { step: ContentStep; release(): void } {
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  return { step: { ...(answer(content) as ContentStep), until }, release };
}

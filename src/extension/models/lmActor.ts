// An Actor over a VS Code chat model (vscode.lm: Copilot or any installed provider). Token counts come from
// the model itself; cancellation goes through a CancellationToken; errors become transient or fatal ActorErrors.
import * as vscode from 'vscode';
import { ActorError, AnswerTooLarge } from '../../ports/actor';
import type { Actor, ActorRequest, ActorResponse } from '../../ports/actor';
import { abortError } from '../../base/abort';
import { CHARS_PER_TOKEN } from '../../base/textTrim';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../shared/config';

const JUSTIFICATION = 'Greenloop asks the model for an edit that makes your failing tests pass.';

export class LmActor implements Actor {
  readonly label: string;

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.label = `vscode-lm:${model.vendor}/${model.id}`;
  }

  /** The chosen model must still be offered (an extension uninstalled, a sign-out): asked before the first test run. */
  async check(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw abortError(signal);
    const offered = await vscode.lm.selectChatModels({ vendor: this.model.vendor, id: this.model.id });
    if (!offered.some((m) => m.id === this.model.id)) {
      throw new ActorError(`The model ${this.model.name} is no longer available; choose another with "Greenloop: Select model".`, 'fatal');
    }
  }

  async propose(req: ActorRequest): Promise<ActorResponse> {
    if (req.signal.aborted) throw abortError(req.signal);
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    req.signal.addEventListener('abort', onAbort, { once: true });
    // Chat models take no system role here; the stable instructions lead the one user message.
    const message = vscode.LanguageModelChatMessage.User(`${req.system}\n\n${req.prompt}`);
    try {
      const prompt = await this.model.countTokens(message, cts.token);
      if (this.model.maxInputTokens > 0 && prompt > this.model.maxInputTokens) {
        throw new ActorError(
          `The prompt (${prompt} tokens) is larger than ${this.model.name}'s input limit (${this.model.maxInputTokens}); choose a model with a larger context with "Greenloop: Select model".`,
          'fatal',
        );
      }
      const response = await this.model.sendRequest([message], { justification: JUSTIFICATION }, cts.token);
      let text = '';
      let bytes = 0;
      const maxBytes = req.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
      for await (const chunk of response.text) {
        text += chunk;
        bytes += Buffer.byteLength(chunk);
        if (bytes > maxBytes) {
          // Past the cap nothing more is read: the model is told to stop, the attempt is an invalid proposal.
          cts.cancel();
          throw new AnswerTooLarge(maxBytes, { prompt, completion: Math.ceil(bytes / CHARS_PER_TOKEN), estimated: true });
        }
        if (req.signal.aborted) break;
      }
      if (req.signal.aborted) throw abortError(req.signal);
      const completion = text ? await this.model.countTokens(text, cts.token) : 0;
      return { kind: 'text', text, usage: { prompt, completion } };
    } catch (err) {
      if (req.signal.aborted) throw abortError(req.signal);
      if (err instanceof AnswerTooLarge) throw err;
      throw toActorError(err, this.model.name);
    } finally {
      req.signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}

/** LanguageModelError codes are stable strings; anything else from a provider is judged by its words. */
export function toActorError(err: unknown, modelName: string): ActorError {
  if (err instanceof ActorError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const code = err instanceof vscode.LanguageModelError ? err.code : undefined;
  switch (code) {
    case 'NoPermissions':
      return new ActorError(`Greenloop may not use ${modelName}: allow it when VS Code asks (or under Accounts › Manage Language Model Access) and run again.`, 'fatal');
    case 'NotFound':
      return new ActorError(`The model ${modelName} is no longer available; choose another with "Greenloop: Select model".`, 'fatal');
    case 'Blocked':
      return new ActorError(`${modelName} refused the request for now (rate limit or quota): ${message}`, 'transient');
    default:
      break;
  }
  if (/context|token limit|too (long|large)|maximum.*tokens/i.test(message)) {
    return new ActorError(`${modelName} rejected the prompt as too large (${message}); choose a model with a larger context.`, 'fatal');
  }
  if (/off_topic|filtered|responsible ai|content policy/i.test(message)) {
    return new ActorError(`${modelName} declined to answer (${message}); try another model or add a hint.`, 'fatal');
  }
  return new ActorError(`${modelName} failed: ${message}`, 'transient');
}

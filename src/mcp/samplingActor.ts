// An Actor that asks the MCP client's own model for each proposal (MCP sampling): a Claude Code or VS Code user
// needs no second model key. The client may show the request to its person, who may refuse it.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ActorError } from '../ports/actor';
import type { Actor, ActorRequest, ActorResponse } from '../ports/actor';
import { estimateTokens } from '../base/estimateTokens';

const DEFAULT_MAX_TOKENS = 8000;

export class SamplingActor implements Actor {
  readonly label: string;

  constructor(private readonly server: Server, clientName: string) {
    this.label = `sampling:${clientName}`;
  }

  async propose(req: ActorRequest): Promise<ActorResponse> {
    let result: Awaited<ReturnType<Server['createMessage']>>;
    try {
      result = await this.server.createMessage({
        systemPrompt: req.system,
        messages: [{ role: 'user', content: { type: 'text', text: req.prompt } }],
        maxTokens: Math.min(req.maxOutputTokens ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS),
        includeContext: 'none',
      }, { signal: req.signal, timeout: 10 * 60_000 });
    } catch (err) {
      if (req.signal.aborted) throw err;
      // A person who declines the request, or a client that cannot sample: the same answer every time.
      throw new ActorError(`The MCP client did not answer the sampling request: ${(err as Error).message}`, 'fatal');
    }
    const parts = Array.isArray(result.content) ? result.content : [result.content];
    const text = parts.map((p) => (p && typeof p === 'object' && (p as { type?: string }).type === 'text' ? (p as { text: string }).text : '')).join('');
    return { kind: 'text', text, usage: { prompt: estimateTokens(`${req.system}\n${req.prompt}`), completion: estimateTokens(text), estimated: true } };
  }
}

// The "actor" of a loop driven from outside: an agent (Claude Code, Copilot, any MCP client) edits the workspace
// itself between checks and asks Greenloop whether it made progress. Nothing runs here; what changed since the last
// check is the attempt the engine judges.
import type { Actor, ActorResponse } from '../ports/actor';

export class ExternalEdits implements Actor {
  readonly editsWorkspace = true;
  readonly external = true;

  constructor(readonly label: string) {}

  async propose(): Promise<ActorResponse> {
    return { kind: 'workspace-edited', transcript: '', usage: { prompt: 0, completion: 0 } };
  }
}

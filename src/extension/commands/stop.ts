import type { CommandDeps, CommandHandler } from './commandDeps';

export function stop({ runs }: CommandDeps): CommandHandler {
  return () => runs.stop();
}

import type { CommandDeps, CommandHandler } from './commandDeps';
import { runTarget, showError } from './commandDeps';

export function rollbackToBest({ runs }: CommandDeps): CommandHandler {
  return async (...args: unknown[]) => {
    try {
      const { folder, runId } = runTarget(runs, args);
      await runs.rollback(folder, runId, 'best');
    } catch (err) {
      showError(err);
    }
  };
}

import type { CommandDeps, CommandHandler } from './commandDeps';
import { runTarget, showError } from './commandDeps';

export function rollbackToBaseline({ runs }: CommandDeps): CommandHandler {
  return async (...args: unknown[]) => {
    try {
      const { folder, runId } = runTarget(runs, args);
      await runs.rollback(folder, runId, 'baseline');
    } catch (err) {
      showError(err);
    }
  };
}

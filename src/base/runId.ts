// Run ids name a run in history, its saved state and its snapshot refs: sortable by time, unique enough.
import { randomBytes } from 'crypto';

export function newRunId(now: number = Date.now()): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

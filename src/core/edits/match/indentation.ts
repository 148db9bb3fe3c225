// Strategy 3: the SEARCH differs from the file by indentation (spaces for tabs, another width, a level dropped);
// the REPLACE is then re-based onto the file's own indentation (rebase.ts).
import { findOnce } from './findLines';
import type { Strategy } from './strategy';

export const trimmed = (l: string): string => l.trim();

export const indentation: Strategy = {
  name: 'indentation',
  rebase: true,
  find: ({ file, search, replace }) => findOnce(file, search, replace, trimmed),
};

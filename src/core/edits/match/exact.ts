// Strategy 1: the SEARCH is in the file character for character.
import { findOnce } from './findLines';
import type { Strategy } from './strategy';

export const exact: Strategy = {
  name: 'exact',
  rebase: false,
  find: ({ file, search, replace }) => findOnce(file, search, replace, (l) => l),
};

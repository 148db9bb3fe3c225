// Strategy 2: the SEARCH differs from the file only by blanks at the ends of lines.
import { findOnce } from './findLines';
import type { Strategy } from './strategy';

export const trailingWhitespace: Strategy = {
  name: 'trailing-whitespace',
  rebase: false,
  find: ({ file, search, replace }) => findOnce(file, search, replace, (l) => l.trimEnd()),
};

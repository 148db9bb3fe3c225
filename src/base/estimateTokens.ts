// Providers without usage counts still have to be charged against the token budget, and the budget is checked
// before a call: ~4 characters per token is the usual rule of thumb for English and code, and errs on the side of
// counting too much.
import { CHARS_PER_TOKEN } from './textTrim';

export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / CHARS_PER_TOKEN);
}

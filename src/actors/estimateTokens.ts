// Providers without usage counts still have to be charged against the token budget; ~4 characters per
// token is the usual rule of thumb for English and code, and errs on the side of counting too much.

const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / CHARS_PER_TOKEN);
}

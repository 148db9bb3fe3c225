// A notification shows a line or two and cuts the rest; a long message is shortened at a sentence end, and the
// full text goes to the "Greenloop" output with a "Show output" button on the toast. Pure, so it is tested directly.

/** About two lines of a notification at the default width. */
export const TOAST_MAX_CHARS = 180;

export function toastText(text: string, max = TOAST_MAX_CHARS): { text: string; cut: boolean } {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return { text: clean, cut: false };
  // A sentence ends at ". " before a capital letter: "src/money.ts. I pad" does not end at "money.".
  let end = -1;
  for (const m of clean.slice(0, max).matchAll(/[.!?;:](?=\s+[A-Z("'])/g)) end = (m.index ?? 0) + 1;
  if (end >= 40) return { text: clean.slice(0, end), cut: true };
  const space = clean.lastIndexOf(' ', max - 1);
  return { text: `${clean.slice(0, space > 40 ? space : max - 1)}…`, cut: true };
}

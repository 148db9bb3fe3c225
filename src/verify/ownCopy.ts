// V8 represents a cut of a string (slice, trim, a regex capture, split, a readline line) of 13 or more characters as
// a view on the string it was cut from, and that whole string stays in memory for as long as the cut is kept. A test
// title kept from each 64 KB chunk of a huge output would keep the whole output alive, once per run.

/**
 * A copy of `s` that shares no memory with the string it was cut from. Joining a character in front and cutting it
 * off again makes a fresh flat string: of the copies a script can make, the cheapest measured (about 0.5 µs a line;
 * Buffer and JSON round trips cost 2 to 7 times more).
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

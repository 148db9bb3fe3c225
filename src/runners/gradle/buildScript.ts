// The parts of build.gradle and build.gradle.kts that decide how the tests run: the blocks that configure the Test
// tasks (`test { … }`, `tasks.test { … }`, `tasks.named('test') { … }`, `tasks.withType(Test) { … }`,
// `tasks.withType<Test> { … }`, `testing { … }` of JVM test suites), found by their opening line and matched to their
// closing brace. Compared as text with white space and comments collapsed: an edit elsewhere (a dependency, a plugin)
// is no change to them.

const OPENING = /^[ \t]*(?:test|tasks\.test|tasks\.named\s*(?:<Test>)?\s*\(\s*["']test["'](?:\s*,\s*Test(?:::class(?:\.java)?)?)?\s*\)|tasks\.withType\s*(?:<Test>\s*(?:\(\s*\))?|\(\s*Test(?:::class(?:\.java)?)?\s*\))(?:\s*\.configureEach)?|testing)\s*\{/gm;

export function testSections(text: string): string | null {
  const plain = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"'])\/\/.*$/gm, '$1');
  const parts: string[] = [];
  for (const m of plain.matchAll(OPENING)) {
    const end = closingBrace(plain, m.index! + m[0].length);
    parts.push(plain.slice(m.index!, end).replace(/\s+/g, ' ').trim());
  }
  return parts.join('\n');
}

/** The index after the brace closing the block opened just before `from` (the text's end when it is never closed). */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

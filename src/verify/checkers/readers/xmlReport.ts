// The XML report inside a terminal's mixed output (Checkstyle prints "Checkstyle ends with N errors." after its
// report; Maven and Gradle print their own lines around it), parsed with the parser the JUnit reader uses.
import { XMLParser } from 'fast-xml-parser';
import { isRecord } from './readerTools';

export type XmlNode = Record<string, unknown>;

/**
 * The element `root` of the first XML document in `text` whose root it is, or null when there is none or it does
 * not parse (cut short, not XML). `lists` names the elements that are always read as arrays.
 */
export function xmlRoot(text: string, root: string, lists: readonly string[]): XmlNode | null {
  const open = new RegExp(`<${root}[\\s>/]`).exec(text);
  if (!open) return null;
  const decl = text.lastIndexOf('<?xml', open.index);
  const start = decl >= 0 && !/<\w/.test(text.slice(decl + 5, open.index)) ? decl : open.index;
  const close = text.indexOf(`</${root}>`, open.index);
  const selfClosing = /^[^>]*\/>/.exec(text.slice(open.index));
  const end = close >= 0 ? close + root.length + 3 : selfClosing ? open.index + selfClosing[0].length : -1;
  if (end < 0) return null;
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    parseTagValue: false,
    parseAttributeValue: false,
    removeNSPrefix: true,
    htmlEntities: true,
    isArray: (name) => lists.includes(name),
  });
  try {
    const doc: unknown = parser.parse(text.slice(start, end));
    const node = isRecord(doc) ? doc[root] : null;
    // An empty element (`<pmd ...></pmd>` with no attributes) parses to "".
    return isRecord(node) ? node : node === '' ? {} : null;
  } catch {
    return null;
  }
}

/** The child elements named `name` (always a list); an element holding only text is `{ '#text': text }`. */
export function children(node: unknown, name: string): XmlNode[] {
  if (!isRecord(node)) return [];
  const v = node[name];
  const asNode = (x: unknown): XmlNode | null => (isRecord(x) ? x : typeof x === 'string' ? { '#text': x } : null);
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map(asNode).filter((x): x is XmlNode => x !== null);
}

export function attr(node: unknown, name: string): string {
  if (!isRecord(node)) return '';
  const v = node[`@_${name}`];
  return typeof v === 'string' ? v : '';
}

/** An element's text, trimmed ("" when it has none). */
export function textOf(node: unknown): string {
  if (typeof node === 'string') return node.trim();
  if (!isRecord(node)) return '';
  const v = node['#text'];
  return typeof v === 'string' ? v.trim() : '';
}

export function intAttr(node: unknown, name: string): number {
  const n = Number.parseInt(attr(node, name), 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

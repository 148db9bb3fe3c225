// Calls through values, typed where the code says the type (issue 40): `this.m()`, `self.m()` and a Go method's
// receiver name the enclosing class, impl or receiver type; `new Foo().m()`, `Foo::new()`, `Foo{}`, a local bound to
// one of those, and a capitalised `Foo.m()` name Foo. Such a call is followed as `Foo.m`, an exact edge ranked above
// the by-name one (`m` in any reached file), which is kept as the over-approximation for the calls no type is known for.
import type { Node } from '@vscode/tree-sitter-wasm';
import type { LanguageId } from './grammars';

const CALLS: Record<LanguageId, string> = { javascript: 'call_expression', typescript: 'call_expression', tsx: 'call_expression', python: 'call', go: 'call_expression', rust: 'call_expression' };

/** `Owner.method` for every method call in `node` whose receiver's type the code states. */
export function typedCalls(node: Node, lang: LanguageId): string[] {
  const locals = localTypes(node, lang);
  const out = new Set<string>();
  for (const call of node.descendantsOfType(CALLS[lang])) {
    const fn = call?.childForFieldName('function');
    if (!fn) continue;
    const parts = receiverAndName(fn);
    if (!parts) continue;
    const owner = typeOf(parts.receiver, lang, locals);
    if (owner) out.add(`${owner}.${parts.name}`);
  }
  return [...out];
}

function receiverAndName(fn: Node): { receiver: Node; name: string } | null {
  const pick = (recv: string, name: string) => {
    const r = fn.childForFieldName(recv);
    const n = fn.childForFieldName(name);
    return r && n ? { receiver: r, name: n.text } : null;
  };
  switch (fn.type) {
    case 'member_expression': return pick('object', 'property');
    case 'attribute': return pick('object', 'attribute');
    case 'selector_expression': return pick('operand', 'field');
    case 'field_expression': return pick('value', 'field');
    case 'scoped_identifier': return pick('path', 'name');
    default: return null;
  }
}

/** The type a receiver expression has, when the code says it; null otherwise. */
function typeOf(receiver: Node, lang: LanguageId, locals: ReadonlyMap<string, string>): string | null {
  const t = receiver.type;
  if (t === 'this' || t === 'self' || (lang === 'python' && t === 'identifier' && (receiver.text === 'self' || receiver.text === 'cls'))) return ownerOf(receiver, lang);
  if (t === 'identifier' || t === 'type_identifier') {
    if (lang === 'go' && receiver.text === goReceiverName(receiver)) return ownerOf(receiver, lang);
    const local = locals.get(receiver.text);
    if (local) return local;
    // `Foo.parse()`, `Foo::new()`: a class or type named by a capital, as every one of these languages writes them.
    return /^[A-Z]\w*$/.test(receiver.text) && !/^[A-Z0-9_]+$/.test(receiver.text) ? receiver.text : null;
  }
  return constructed(receiver, lang);
}

/** `new Foo(…)`, `Foo(…)` (Python), `Foo{…}` / `&Foo{…}` / `NewFoo(…)` (Go), `Foo { … }` / `Foo::new(…)` (Rust). */
function constructed(value: Node, lang: LanguageId): string | null {
  let v: Node | null = value;
  while (v && (v.type === 'parenthesized_expression' || v.type === 'await_expression' || v.type === 'unary_expression' || v.type === 'reference_expression')) {
    v = v.childForFieldName('operand') ?? v.childForFieldName('value') ?? v.namedChild(0);
  }
  if (!v) return null;
  const capital = (n: Node | null) => (n && /^[A-Z]\w*$/.test(n.text) ? n.text : null);
  switch (v.type) {
    case 'new_expression': return capital(v.childForFieldName('constructor'));
    case 'composite_literal': return capital(v.childForFieldName('type'));
    case 'struct_expression': return capital(v.childForFieldName('name'));
    case 'call':
    case 'call_expression': {
      const fn = v.childForFieldName('function');
      if (!fn) return null;
      if (lang === 'python' && fn.type === 'identifier') return capital(fn);
      if (lang === 'go' && fn.type === 'identifier') return /^New([A-Z]\w*)$/.exec(fn.text)?.[1] ?? null;
      if (lang === 'rust' && fn.type === 'scoped_identifier') return capital(fn.childForFieldName('path'));
      return null;
    }
    default: return null;
  }
}

/** Locals bound to a constructed value within the unit: `const v = new Foo()`, `v := NewFoo()`, `let v = Foo::new()`. */
function localTypes(node: Node, lang: LanguageId): Map<string, string> {
  const out = new Map<string, string>();
  const bind = (name: Node | null | undefined, value: Node | null | undefined) => {
    if (!name || !value || name.type !== 'identifier') return;
    const type = constructed(value, lang);
    if (type) out.set(name.text, type);
  };
  switch (lang) {
    case 'python':
      for (const a of node.descendantsOfType('assignment')) bind(a?.childForFieldName('left'), a?.childForFieldName('right'));
      break;
    case 'go':
      for (const d of node.descendantsOfType('short_var_declaration')) bind(d?.childForFieldName('left')?.namedChild(0), d?.childForFieldName('right')?.namedChild(0));
      break;
    case 'rust':
      for (const d of node.descendantsOfType('let_declaration')) bind(d?.childForFieldName('pattern'), d?.childForFieldName('value'));
      break;
    default:
      for (const d of node.descendantsOfType('variable_declarator')) bind(d?.childForFieldName('name'), d?.childForFieldName('value'));
  }
  return out;
}

/** The class, impl or Go receiver type around a node. */
export function ownerOf(node: Node, lang: LanguageId): string | null {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (lang === 'go' && n.type === 'method_declaration') return goReceiverType(n);
    if (lang === 'rust' && n.type === 'impl_item') return baseType(n.childForFieldName('type'));
    if ((n.type === 'class_declaration' || n.type === 'class' || n.type === 'class_definition' || n.type === 'abstract_class_declaration') && n.childForFieldName('name')) {
      return n.childForFieldName('name')!.text;
    }
  }
  return null;
}

/** `func (v *Version) …`: Version. */
export function goReceiverType(method: Node): string | null {
  const param = method.childForFieldName('receiver')?.namedChild(0);
  return baseType(param?.childForFieldName('type') ?? null);
}

function goReceiverName(node: Node): string | null {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type === 'method_declaration') return n.childForFieldName('receiver')?.namedChild(0)?.childForFieldName('name')?.text ?? null;
  }
  return null;
}

/** A type's own name: `*Version`, `Version[T]`, `Version<'a>` are Version. */
function baseType(type: Node | null): string | null {
  const name = type?.text.replace(/^[*&\s]+|\s*[[<].*$/gs, '').replace(/^.*::/, '') ?? '';
  return /^[A-Za-z_]\w*$/.test(name) ? name : null;
}

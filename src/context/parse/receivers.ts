// Calls through values, typed where the code says the type (issue 40): `this.m()`, `self.m()`, `$this->m()`,
// `self::m()` and a Go method's receiver name the enclosing class, impl or receiver type; `new Foo().m()`,
// `Foo::new()`, `Foo{}`, `Foo.new` (Ruby), a local or parameter declared `Foo x` or bound to one of those, and a
// capitalised `Foo.m()` / `Foo::m()` name Foo. Such a call is followed as `Foo.m`, an exact edge ranked above
// the by-name one (`m` in any reached file), which is kept as the over-approximation for the calls no type is known for.
import type { Node } from '@vscode/tree-sitter-wasm';
import type { LanguageId } from './grammars';
import { CALL_TYPES, callSite } from './calls';
import { cppFunctionName } from './testMarks';

/** `Owner.method` for every method call in `node` whose receiver's type the code states. */
export function typedCalls(node: Node, lang: LanguageId): string[] {
  const locals = localTypes(node, lang);
  const out = new Set<string>();
  for (const call of node.descendantsOfType([...CALL_TYPES[lang]])) {
    const site = call && callSite(call, lang);
    if (!site?.name) continue;
    const owner = site.receiver ? typeOf(site.receiver, lang, locals) : site.keyword === 'this' ? ownerOf(call!, lang) : null;
    if (owner) out.add(`${owner}.${site.name}`);
  }
  return [...out];
}

/** The type a receiver expression has, when the code says it; null otherwise. */
function typeOf(receiver: Node, lang: LanguageId, locals: ReadonlyMap<string, string>): string | null {
  const t = receiver.type;
  if (t === 'this' || t === 'self' || (lang === 'python' && t === 'identifier' && (receiver.text === 'self' || receiver.text === 'cls'))) return ownerOf(receiver, lang);
  // PHP: `$this->m()`, `self::m()`, `static::m()`.
  if (lang === 'php' && (receiver.text === '$this' || (t === 'relative_scope' && receiver.text !== 'parent'))) return ownerOf(receiver, lang);
  if (lang === 'php' && t === 'variable_name') return locals.get(receiver.text) ?? null;
  if (t === 'identifier' || t === 'type_identifier' || t === 'constant' || t === 'namespace_identifier' || t === 'name' || t === 'scope_resolution' || t === 'qualified_name') {
    if (lang === 'go' && receiver.text === goReceiverName(receiver)) return ownerOf(receiver, lang);
    const local = locals.get(receiver.text);
    if (local) return local;
    // `Foo.parse()`, `Foo::new()`, `Inflect::Words.build`: a class or type named by a capital, as every one of these
    // languages writes them.
    const own = receiver.text.replace(/^.*(?:::|\\)/s, '');
    return /^[A-Z]\w*$/.test(own) && !/^[A-Z0-9_]+$/.test(own) ? own : null;
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
  const capital = (n: Node | null) => {
    const own = n?.text.replace(/<.*$/s, '').replace(/^.*(?:::|\\|\.)/s, '') ?? '';
    return /^[A-Z]\w*$/.test(own) ? own : null;
  };
  switch (v.type) {
    case 'new_expression': return capital(v.childForFieldName('constructor') ?? v.childForFieldName('type'));
    // `new Foo(…)` in Java and C# (the type), PHP (the class's name).
    case 'object_creation_expression': return capital(v.childForFieldName('type') ?? v.namedChildren.find((c) => c?.type === 'name' || c?.type === 'qualified_name') ?? null);
    case 'composite_literal': return capital(v.childForFieldName('type'));
    case 'struct_expression': return capital(v.childForFieldName('name'));
    case 'call':
    case 'call_expression': {
      // Ruby: `Foo.new(…)`.
      if (lang === 'ruby') return v.childForFieldName('method')?.text === 'new' ? capital(v.childForFieldName('receiver')) : null;
      const fn = v.childForFieldName('function');
      if (!fn) return null;
      if (lang === 'python' && fn.type === 'identifier') return capital(fn);
      if (lang === 'go' && fn.type === 'identifier') return /^New([A-Z]\w*)$/.exec(fn.text)?.[1] ?? null;
      if (lang === 'rust' && fn.type === 'scoped_identifier') return capital(fn.childForFieldName('path'));
      if (lang === 'cpp' && fn.type === 'identifier') return capital(fn);
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
  /** A name declared with a class type (`Foo x`, `Money $o`); false for `var`, `auto` and primitives. */
  const declared = (name: Node | null | undefined, type: Node | null | undefined): boolean => {
    const base = type ? baseTypeText(type.text.replace(/^(?:const|struct|class)\s+/, '').replace(/^\??\\?(?:\w+\\)*/, '').replace(/[*&\s]+$/, '')) : null;
    if (!name || !base || !/^[A-Z]/.test(base)) return false;
    out.set(name.text, base);
    return true;
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
    case 'ruby':
      for (const a of node.descendantsOfType('assignment')) bind(a?.childForFieldName('left'), a?.childForFieldName('right'));
      break;
    case 'php':
      for (const a of node.descendantsOfType('assignment_expression')) {
        const left = a?.childForFieldName('left');
        const type = left?.type === 'variable_name' ? constructed(a!.childForFieldName('right')!, lang) : null;
        if (type) out.set(left!.text, type);
      }
      // `function add(Money $o)`: the parameter's declared class.
      for (const p of node.descendantsOfType('simple_parameter')) declared(p?.childForFieldName('name'), p?.childForFieldName('type'));
      break;
    case 'java':
    case 'csharp':
    case 'cpp':
      // `Foo x = …;`, `var x = new Foo();`, `Foo* p = new Foo;`, `Foo f;`, and parameters `Foo x`.
      // The method's own declarations, and the fields of its class (`private Book book;` … `book.total()`).
      for (const d of [...classFields(node), ...node.descendantsOfType(['local_variable_declaration', 'variable_declaration', 'declaration'])]) {
        if (!d) continue;
        const declarators = d.descendantsOfType(['variable_declarator', 'init_declarator', 'identifier']).filter((x) => x?.parent?.equals(d) || x?.type !== 'identifier');
        for (const decl of declarators) {
          if (!decl) continue;
          const name = decl.type === 'identifier' ? decl : decl.childForFieldName('name') ?? innerName(decl.childForFieldName('declarator')) ?? decl.namedChild(0);
          if (name?.type !== 'identifier') continue;
          const value = decl.childForFieldName('value') ?? (lang === 'csharp' ? decl.namedChildren.find((c) => c?.type === 'object_creation_expression') ?? null : null);
          if (!declared(name, d.childForFieldName('type')) && value) bind(name, value);
        }
      }
      for (const p of node.descendantsOfType(['formal_parameter', 'parameter', 'parameter_declaration'])) declared(p?.childForFieldName('name') ?? innerName(p?.childForFieldName('declarator') ?? null), p?.childForFieldName('type'));
      break;
    default:
      for (const d of node.descendantsOfType('variable_declarator')) bind(d?.childForFieldName('name'), d?.childForFieldName('value'));
  }
  return out;
}

function classFields(node: Node): Array<Node | null> {
  let cls: Node | null = node.parent;
  while (cls && !CLASS_NODES.has(cls.type)) cls = cls.parent;
  const body = cls?.childForFieldName('body');
  const fields = (body?.namedChildren ?? []).filter((c) => c?.type === 'field_declaration');
  // C#'s field holds its declaration one level down.
  return fields.flatMap((f) => (f?.namedChildren.find((c) => c?.type === 'variable_declaration') ? [f.namedChildren.find((c) => c?.type === 'variable_declaration')!] : [f]));
}

/** A C++ declarator's identifier, through pointers and references (`*p`, `&r`). */
function innerName(d: Node | null): Node | null {
  let n = d;
  while (n && n.type !== 'identifier') n = n.childForFieldName('declarator');
  return n;
}

const CLASS_NODES = new Set(['class_declaration', 'class', 'class_definition', 'abstract_class_declaration', 'record_declaration', 'enum_declaration', 'interface_declaration', 'struct_declaration', 'trait_declaration', 'class_specifier', 'struct_specifier']);

/** The class, impl or Go receiver type around a node. */
export function ownerOf(node: Node, lang: LanguageId): string | null {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (lang === 'go' && n.type === 'method_declaration') return goReceiverType(n);
    if (lang === 'rust' && n.type === 'impl_item') return baseType(n.childForFieldName('type'));
    // `int Cart::total() { return this->sum(); }`: the class the definition names.
    if (lang === 'cpp' && n.type === 'function_definition') {
      const owner = cppFunctionName(n).owner;
      if (owner) return owner;
    }
    if (CLASS_NODES.has(n.type) && n.childForFieldName('name')) {
      return n.childForFieldName('name')!.text.replace(/^.*::/s, '');
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
  return baseTypeText(type?.text ?? '');
}

function baseTypeText(text: string): string | null {
  const name = text.replace(/^[*&\s]+|\s*[[<].*$/gs, '').replace(/^.*::/, '');
  return /^[A-Za-z_]\w*$/.test(name) ? name : null;
}

// What a call looks like in each grammar: the node types that call, and where a call's name and receiver sit.
// `obj.name(…)` is a member expression under a call in JavaScript, Python, Go, Rust, C++ and C#; Java, Ruby and PHP
// write the receiver and the name on the call node itself (`method_invocation`, `call`, `member_call_expression`).
import type { Node } from '@vscode/tree-sitter-wasm';
import type { LanguageId } from './grammars';

export const CALL_TYPES: Record<LanguageId, readonly string[]> = {
  javascript: ['call_expression'],
  typescript: ['call_expression'],
  tsx: ['call_expression'],
  python: ['call'],
  go: ['call_expression'],
  rust: ['call_expression'],
  cpp: ['call_expression'],
  java: ['method_invocation'],
  csharp: ['invocation_expression'],
  ruby: ['call'],
  php: ['function_call_expression', 'member_call_expression', 'nullsafe_member_call_expression', 'scoped_call_expression'],
};

/** Callee node type → [receiver field(s), name field]: `a.b(…)` in the grammars whose calls hold a callee. */
const MEMBER: Record<string, [readonly string[], string]> = {
  member_expression: [['object'], 'property'],
  attribute: [['object'], 'attribute'],
  selector_expression: [['operand'], 'field'],
  field_expression: [['value', 'argument'], 'field'],
  scoped_identifier: [['path'], 'name'],
  qualified_identifier: [['scope'], 'name'],
  member_access_expression: [['expression'], 'name'],
};

export interface CallSite {
  name: string;
  /** What the method is called on; null for a plain call. `this` written as a keyword only (C#) is the node `this`. */
  receiver: Node | null;
  /** A C# `this.m()` or a `base.m()`: the keyword the grammar leaves unnamed. */
  keyword?: string;
}

/** The name and receiver of one call node, or null for a call of something computed (`f()()`, `a[i]()`). */
export function callSite(call: Node, lang: LanguageId): CallSite | null {
  if (lang === 'java' || lang === 'ruby' || lang === 'php') {
    const name = call.childForFieldName(lang === 'ruby' ? 'method' : 'name') ?? call.childForFieldName('function');
    if (!name) return null;
    const receiver = call.childForFieldName(lang === 'ruby' ? 'receiver' : 'object') ?? call.childForFieldName('scope');
    return { name: (lang === 'ruby' ? sentName(call, name.text) : null) ?? lastSegment(name.text), receiver };
  }
  const fn = call.childForFieldName('function');
  if (!fn) return null;
  if (fn.type === 'identifier') return { name: fn.text, receiver: null };
  if (fn.type === 'template_function' || fn.type === 'generic_name') return { name: fn.childForFieldName('name')?.text ?? fn.namedChild(0)?.text ?? '', receiver: null };
  const member = MEMBER[fn.type];
  if (!member) return null;
  let name = fn.childForFieldName(member[1]);
  // `a::b::c()` (C++) nests qualified names; `obj.get<T>()` names a template.
  while (name && (name.type === 'qualified_identifier' || name.type === 'template_function' || name.type === 'template_method' || name.type === 'generic_name')) name = name.childForFieldName('name') ?? name.namedChild(0);
  if (!name) return null;
  const receiver = member[0].map((f) => fn.childForFieldName(f)).find((r) => r) ?? null;
  const keyword = receiver ? undefined : fn.child(0)?.type;
  return { name: lastSegment(name.text), receiver, ...(keyword === 'this' || keyword === 'base' ? { keyword } : {}) };
}

function lastSegment(text: string): string {
  return text.replace(/^.*(?:::|\\)/s, '');
}

/** Ruby's `x.send(:name, …)` (and public_send, __send__) calls `name` on x, a private method as often as not. */
function sentName(call: Node, method: string): string | null {
  if (method !== 'send' && method !== 'public_send' && method !== '__send__') return null;
  const first = call.childForFieldName('arguments')?.namedChild(0);
  return first?.type === 'simple_symbol' ? first.text.slice(1) : null;
}

// What marks a function as a test in each grammar (an attribute, an annotation, a name, a macro), and a C++
// function's own name, which its declarator chain holds rather than a name field.
import type { Node } from '@vscode/tree-sitter-wasm';
import type { LanguageId } from './grammars';

/**
 * A C++ function's name and, for one defined outside its class (`int Foo::bar()`), the class: the declarator chain
 * (pointers, references) down to the function declarator's own.
 */
export function cppFunctionName(node: Node): { name: string; owner?: string } {
  let d: Node | null = node.childForFieldName('declarator');
  while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  const written = d?.childForFieldName('declarator')?.text.replace(/\s+/g, '') ?? '';
  const parts = written.replace(/<[^<>]*>/g, '').split('::');
  const name = parts.pop() ?? '';
  const owner = parts.pop();
  return owner && /^[A-Za-z_]\w*$/.test(owner) ? { name, owner } : { name };
}

const TEST_ANNOTATIONS = /^(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Fact|Theory|TestMethod|TestCase|DataTestMethod)$/;
const CPP_TEST_MACROS = new Set(['TEST', 'TEST_F', 'TEST_P', 'TYPED_TEST', 'TYPED_TEST_P', 'TEST_CASE', 'SCENARIO', 'TEST_CASE_METHOD']);

/**
 * `def test_…`, `func TestX(t *testing.T)`, a Rust fn under `#[test]` (or `#[tokio::test]`), a Java method under
 * `@Test`, a C# one under `[Fact]`/`[Test]`, a PHPUnit or minitest `test…` method, GoogleTest's and Catch2's macros.
 */
export function isTestFunction(node: Node, lang: LanguageId): boolean {
  const name = node.childForFieldName('name')?.text ?? '';
  switch (lang) {
    case 'python': return name.startsWith('test');
    case 'go': return node.type === 'function_declaration' && /^(Test|Benchmark|Fuzz|Example)/.test(name);
    case 'rust': return attributesOf(node).some((a) => a === 'test' || a.endsWith('::test'));
    case 'java': {
      const modifiers = node.namedChildren.find((c) => c?.type === 'modifiers');
      return (modifiers?.namedChildren ?? []).some((a) => (a?.type === 'marker_annotation' || a?.type === 'annotation') && TEST_ANNOTATIONS.test(a.childForFieldName('name')?.text.replace(/^.*\./, '') ?? ''));
    }
    case 'csharp':
      return node.namedChildren.some((c) => c?.type === 'attribute_list' && c.namedChildren.some((a) => TEST_ANNOTATIONS.test(a?.childForFieldName('name')?.text.replace(/^.*\./, '') ?? '')));
    case 'php': return node.type === 'method_declaration' && (name.startsWith('test') || /@test\b|#\[Test\]/.test(node.previousSibling?.type === 'comment' ? node.previousSibling.text : '') || /#\[(?:\\?PHPUnit\\Framework\\Attributes\\)?Test\]/.test(node.text.slice(0, 200)));
    case 'ruby': return name.startsWith('test_');
    case 'cpp': return CPP_TEST_MACROS.has(cppFunctionName(node).name);
    default: return false;
  }
}

/** The `#[…]` attributes right above a Rust item, innermost text (`test`, `tokio::test`, `cfg(test)`). */
export function attributesOf(node: Node): string[] {
  const out: string[] = [];
  for (let prev = node.previousNamedSibling; prev?.type === 'attribute_item'; prev = prev.previousNamedSibling) {
    const attr = prev.namedChild(0);
    out.push(attr?.namedChild(0)?.text ?? attr?.text ?? '');
  }
  return out;
}

// Ruby: `require_relative 'x'` beside the requiring file; `require 'a/b'` on the load path a test run has (lib/ as
// RSpec, rake's test task and a gemspec put it there, then spec/ and test/); a spec's spec_helper (RSpec's .rspec
// requires it without the spec saying so) and a test's test_helper; and a constant the code names, `Inflect::Words`,
// at the file Zeitwerk and the gem convention give it (lib/inflect/words.rb), which is how specs that require nothing
// reach their code.
import * as path from 'node:path';
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import { nodes, stringValue, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';
import { calledNames, declarations } from '../parse/units';

const LOAD_PATH = ['lib', 'spec', 'test', 'app/models', 'app/services', 'app/lib', ''];

export function rubyFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  const constants = new Set<string>();
  /** `Money` written inside `module Ledger` is Ledger::Money first, as Ruby looks constants up. */
  const nested = new Set<string>();
  for (const node of nodes(tree.rootNode, new Set(['call', 'scope_resolution', 'constant']))) {
    if (node.type === 'call') {
      const method = node.childForFieldName('method')?.text ?? '';
      if (node.childForFieldName('receiver') || !/^(?:require|require_relative|load|autoload)$/.test(method)) continue;
      const args = node.childForFieldName('arguments')?.namedChildren ?? [];
      const arg = method === 'autoload' ? args[1] : args[0];
      const spec = arg?.type === 'string' && !arg.namedChildren.some((c) => c?.type === 'interpolation') ? stringValue(arg) : null;
      if (spec !== null) imports.push({ spec: `${method === 'require_relative' ? 'relative' : 'load'}:${spec}`, names: [] });
    } else if (node.parent?.type !== 'scope_resolution' && !inDefinitionName(node)) {
      // The outermost name only: `Inflect::Words`, not its `Inflect` and `Words` again.
      constants.add(node.text.replace(/^::/, ''));
      if (!node.text.startsWith('::')) for (const outer of nesting(node)) nested.add(`${outer}::${node.text}`);
    }
  }
  for (const c of nested) imports.push({ spec: `nested:${c}`, names: [c.replace(/^.*::/, '')] });
  for (const c of constants) imports.push({ spec: `const:${c}`, names: [c.replace(/^.*::/, '')] });
  const defines = declarations(tree, 'ruby').map((d) => d.unit.name).filter(Boolean);
  return { imports, defines: uniq(defines), calls: calledNames(tree.rootNode, 'ruby', true) };
}

/** The modules and classes around a node, innermost first, each with its full name: [Ledger::Book, Ledger]. */
function nesting(node: Node): string[] {
  const names: string[] = [];
  for (let p = node.parent; p; p = p.parent) if ((p.type === 'module' || p.type === 'class') && p.childForFieldName('name')) names.unshift(p.childForFieldName('name')!.text);
  return names.map((_, i) => names.slice(0, names.length - i).join('::'));
}

/** `class Words` and `module Inflect` name what the file defines, not what it uses. */
function inDefinitionName(node: Node): boolean {
  const p = node.parent;
  return !!p && (p.type === 'class' || p.type === 'module') && !!p.childForFieldName('name')?.equals(node);
}

export class RubyResolver {
  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    const colon = ref.spec.indexOf(':');
    const kind = ref.spec.slice(0, colon);
    const spec = ref.spec.slice(colon + 1);
    if (kind === 'relative') return this.found([path.posix.join(dirOf(from) || '.', spec)]);
    if (kind === 'load') return this.found(LOAD_PATH.map((d) => path.posix.join(d || '.', spec)));
    // A constant: `A::BcD` → a/bc_d.rb under the load path; a nested one's outer names may be modules only. A name
    // read inside a module (`nested:`) counts only as a whole: Ledger::Money is lib/ledger/money.rb or nothing.
    const parts = spec.split('::').map(underscore);
    for (let n = parts.length; n > (kind === 'nested' ? parts.length - 1 : 0); n--) {
      const hit = this.found(LOAD_PATH.filter(Boolean).map((d) => path.posix.join(d, ...parts.slice(0, n))));
      if (hit.length) return hit;
    }
    return [];
  }

  /** A spec runs with its spec_helper, a minitest test with its test_helper: found up its folders. */
  companions(from: string): string[] {
    const m = /(?:^|\/)(spec|test)\//.exec(from);
    if (!m) return [];
    const top = from.slice(0, m.index + m[0].length);
    return this.found([`${top}${m[1]}_helper`, `${top}rails_helper`]);
  }

  private found(stems: string[]): string[] {
    for (const stem of stems) {
      const file = this.files.norm(stem.endsWith('.rb') ? stem : `${stem}.rb`);
      if (file && this.files.isFile(file)) return [file];
    }
    return [];
  }
}

/** `InflectWords` → inflect_words, as Ruby's file names spell a constant. */
function underscore(name: string): string {
  return name.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase();
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}

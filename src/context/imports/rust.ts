// Rust: `mod x;` (x.rs, x/mod.rs, or its #[path]), `use crate::a::b`, `super::`, `self::`, paths written in calls
// (`crate::eval::run()`), and, for a crate's integration tests, examples and benches, the library root src/lib.rs,
// which they use by the crate's name.
import * as path from 'node:path';
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import { parse as parseToml } from 'smol-toml';
import { nodes, stringValue, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';

/** The node types the walk below looks at. */
const RS_TYPES = new Set(['mod_item', 'use_declaration', 'call_expression', 'function_item', 'struct_item', 'enum_item', 'trait_item', 'type_item', 'const_item', 'static_item', 'macro_definition', 'union_item']);

export function rustFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  const defines: string[] = [];
  const calls: string[] = [];
  for (const node of nodes(tree.rootNode, RS_TYPES)) {
    switch (node.type) {
      case 'mod_item': {
        if (node.childForFieldName('body')) break; // inline: no file of its own
        const name = node.childForFieldName('name')?.text ?? '';
        imports.push({ spec: `mod:${name}`, names: [], pathAttr: pathAttribute(node) });
        break;
      }
      case 'use_declaration': {
        const pub = node.namedChildren.some((c) => c?.type === 'visibility_modifier');
        for (const segments of useTree(node.childForFieldName('argument'), [])) {
          const wildcard = segments[segments.length - 1] === '*';
          const named = segments.filter((s) => s !== '*');
          // The last segment is the item (or a module: then no file defines it, and it ranks nothing).
          imports.push({ spec: named.join('::'), names: wildcard ? [] : named.slice(-1), passes: pub && wildcard });
        }
        break;
      }
      case 'call_expression': {
        const fn = node.childForFieldName('function');
        if (fn?.type === 'identifier') calls.push(fn.text);
        else if (fn?.type === 'field_expression') calls.push(fn.childForFieldName('field')?.text ?? '');
        else if (fn?.type === 'scoped_identifier') {
          calls.push(fn.childForFieldName('name')?.text ?? '');
          const written = fn.childForFieldName('path')?.text;
          const name = fn.childForFieldName('name')?.text ?? '';
          if (written) imports.push({ spec: `${written}::${name}`, names: [name] });
        }
        break;
      }
      case 'function_item':
      case 'struct_item':
      case 'enum_item':
      case 'trait_item':
      case 'type_item':
      case 'const_item':
      case 'static_item':
      case 'macro_definition':
      case 'union_item':
        defines.push(node.childForFieldName('name')?.text ?? '');
        break;
    }
  }
  return { imports, defines: uniq(defines.filter(Boolean)), calls: uniq(calls.filter(Boolean)) };
}

/** Every path a use tree names, as segments: `a::{b, c::D}` → [a, b], [a, c, D]; `a::*` → [a, *]. */
function useTree(node: Node | null, prefix: string[]): string[][] {
  if (!node) return [];
  switch (node.type) {
    case 'scoped_identifier':
    case 'identifier':
    case 'crate':
    case 'self':
    case 'super':
      return [[...prefix, ...node.text.split('::').map((s) => s.trim())]];
    case 'use_as_clause':
      return useTree(node.childForFieldName('path'), prefix);
    case 'use_wildcard':
      return [[...prefix, ...(node.namedChildren[0]?.text.split('::') ?? []), '*']];
    case 'scoped_use_list': {
      const base = node.childForFieldName('path')?.text.split('::') ?? [];
      return useTree(node.childForFieldName('list'), [...prefix, ...base]);
    }
    case 'use_list':
      return node.namedChildren.flatMap((c) => useTree(c, prefix));
    default:
      return [];
  }
}

/** `#[path = "x.rs"]` right before a `mod x;`. */
function pathAttribute(mod: Node): string | undefined {
  for (let prev = mod.previousNamedSibling; prev?.type === 'attribute_item'; prev = prev.previousNamedSibling) {
    const attr = prev.namedChildren[0];
    if (attr?.namedChildren[0]?.text === 'path') return stringValue(attr.childForFieldName('value')) ?? undefined;
  }
  return undefined;
}

interface Crate {
  dir: string;
  /** src/lib.rs or src/main.rs: where `crate::` starts. */
  root: string | null;
  lib: string | null;
  name: string | null;
}

export class RustResolver {
  private readonly crates = new Map<string, Crate | null>();

  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    if (ref.spec.startsWith('mod:')) return this.modFile(from, ref.spec.slice(4), ref.pathAttr);
    const crate = this.crateOf(dirOf(from));
    if (!crate?.root) return [];
    const segs = ref.spec.split('::').filter(Boolean);
    const srcDir = path.posix.dirname(crate.root);
    let module: string[] = [];
    let i = 0;
    let start: string | null = crate.root;
    if (segs[0] === 'crate') i = 1;
    else if (crate.name && segs[0] === crate.name) {
      start = crate.lib;
      i = 1;
    } else {
      module = this.modulePath(crate, from);
      for (; segs[i] === 'self' || segs[i] === 'super'; i++) if (segs[i] === 'super') module = module.slice(0, -1);
      // Without self/super, a path starts at a module in scope (a child of this one), else it is another crate or std.
      if (i === 0 && !this.moduleFile(srcDir, [...module, segs[0]])) return [];
    }
    if (!start) return [];
    // Walk down the module tree as far as files go; what is left names an item of the last module.
    let file = module.length ? this.moduleFile(srcDir, module) : start;
    for (; i < segs.length; i++) {
      const deeper = this.moduleFile(srcDir, [...module, segs[i]]);
      if (!deeper) break;
      module = [...module, segs[i]];
      file = deeper;
    }
    return file ? [file] : [];
  }

  /** Integration tests, examples and benches use the crate's library: its root is where they go. */
  companions(from: string): string[] {
    const crate = this.crateOf(dirOf(from));
    if (!crate?.lib) return [];
    const inCrate = path.posix.relative(crate.dir || '.', from);
    return /^(?:tests|examples|benches)\//.test(inCrate) ? [crate.lib] : [];
  }

  /** `mod name;` in `from`: beside it (lib.rs, main.rs, mod.rs) or in its own folder; #[path] relative to its folder. */
  private modFile(from: string, name: string, pathAttr?: string): string[] {
    const dir = dirOf(from);
    if (pathAttr) {
      const f = this.files.norm(path.posix.join(dir || '.', pathAttr));
      return f && this.files.isFile(f) ? [f] : [];
    }
    const base = /^(?:lib|main|mod)\.rs$/.test(path.posix.basename(from)) ? dir : path.posix.join(dir || '.', path.posix.basename(from, '.rs'));
    const hit = [`${base}/${name}.rs`, `${base}/${name}/mod.rs`].map((c) => this.files.norm(c)).find((c): c is string => c !== null && this.files.isFile(c));
    return hit ? [hit] : [];
  }

  private moduleFile(srcDir: string, module: string[]): string | null {
    const stem = path.posix.join(srcDir || '.', ...module);
    return [`${stem}.rs`, `${stem}/mod.rs`].map((c) => this.files.norm(c)).find((c): c is string => c !== null && this.files.isFile(c)) ?? null;
  }

  /** The module a file of src/ is: src/a/b.rs and src/a/b/mod.rs are a::b; the roots are the crate itself. */
  private modulePath(crate: Crate, from: string): string[] {
    const src = path.posix.join(crate.dir || '.', 'src');
    const inSrc = path.posix.relative(src, from);
    if (inSrc.startsWith('..')) return [];
    const parts = inSrc.replace(/\.rs$/, '').split('/');
    if (parts[parts.length - 1] === 'mod') parts.pop();
    if (parts.length === 1 && (parts[0] === 'lib' || parts[0] === 'main')) return [];
    return parts;
  }

  /** The nearest Cargo.toml at or above `dir`: the crate's folder, roots and name. */
  private crateOf(dir: string): Crate | null {
    if (this.crates.has(dir)) return this.crates.get(dir)!;
    const text = this.files.read(dir ? `${dir}/Cargo.toml` : 'Cargo.toml');
    let found: Crate | null = null;
    if (text !== null) {
      let manifest: { package?: { name?: unknown }; lib?: { name?: unknown; path?: unknown } } = {};
      try {
        manifest = parseToml(text) as typeof manifest;
      } catch {
        // a manifest that does not parse still marks the crate's folder
      }
      const at = (rel: string) => this.files.norm(path.posix.join(dir || '.', rel));
      const libPath = typeof manifest.lib?.path === 'string' ? manifest.lib.path : 'src/lib.rs';
      const lib = [at(libPath)].find((f): f is string => f !== null && this.files.isFile(f)) ?? null;
      const main = [at('src/main.rs')].find((f): f is string => f !== null && this.files.isFile(f)) ?? null;
      const rawName = typeof manifest.lib?.name === 'string' ? manifest.lib.name : typeof manifest.package?.name === 'string' ? manifest.package.name : null;
      found = { dir, root: lib ?? main, lib, name: rawName ? rawName.replace(/-/g, '_') : null };
    } else if (dir) {
      found = this.crateOf(dirOf(dir));
    }
    this.crates.set(dir, found);
    return found;
  }
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}

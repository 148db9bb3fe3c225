// Every file a bundle can load, on any path through it, read from the bundle itself: each `require("./x.js")` and each
// path built from `__dirname` (`path.join(__dirname, "action.js")`, a folder of WASM files), followed from file to file.
// A list kept by hand is what let dist/action.js out of the npm package: the CLI loads it only in GitHub's format.
import * as fs from 'fs';
import * as path from 'path';

/** `require("./base.js")` — a relative, literal require that esbuild left to Node (a chunk, the MCP server). */
const RELATIVE_REQUIRE = /\brequire\(\s*(["'])(\.{1,2}\/[^"']+)\1\s*\)/g;
/** `.join(__dirname, "a", "b")` / `.resolve(__dirname, …)`: the literal parts after __dirname. */
const FROM_DIRNAME = /\.(?:join|resolve)\(\s*__dirname((?:\s*,\s*(["'])[^"']*\2)+)\s*\)/g;
const LITERAL = /(["'])([^"']*)\1/g;

export interface Reached {
  /** Files, relative to `root` with "/" separators: what must ship. */
  files: string[];
  /** Paths a bundle names that do not exist in the build (a fallback for the source tree, or a missing file). */
  absent: string[];
}

/**
 * From `entry` (a file under `root`), every file reached. Paths through a `node_modules` folder are a dependency's,
 * which the package does not carry (it has none: they are fallbacks for running from a source checkout), and are left
 * out; a folder named from `__dirname` counts with every file in it.
 */
export function bundleReach(root: string, entry: string): Reached {
  const files = new Set<string>();
  const absent = new Set<string>();
  const queue = [path.resolve(root, entry)];
  const rel = (p: string) => path.relative(root, p).split(path.sep).join('/');
  while (queue.length) {
    const file = queue.shift()!;
    if (files.has(rel(file))) continue;
    files.add(rel(file));
    if (!file.endsWith('.js')) continue;
    const text = fs.readFileSync(file, 'utf8');
    const named = [
      ...[...text.matchAll(RELATIVE_REQUIRE)].map((m) => path.resolve(path.dirname(file), m[2])),
      ...[...text.matchAll(FROM_DIRNAME)].map((m) => path.resolve(path.dirname(file), ...[...m[1].matchAll(LITERAL)].map((l) => l[2]))),
    ];
    for (const target of named) {
      if (rel(target).split('/').includes('node_modules')) continue;
      if (rel(target).startsWith('..')) throw new Error(`${rel(file)} names ${target}, outside the package.`);
      if (!fs.existsSync(target)) {
        absent.add(rel(target));
      } else if (fs.statSync(target).isDirectory()) {
        for (const inside of fs.readdirSync(target, { recursive: true, withFileTypes: true })) {
          if (inside.isFile()) queue.push(path.join(inside.parentPath ?? inside.path, inside.name));
        }
      } else {
        queue.push(target);
      }
    }
  }
  return { files: [...files].sort(), absent: [...absent].sort() };
}

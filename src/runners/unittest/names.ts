// How unittest names a test — `test_sub (tests.test_calc.TestCalc.test_sub)` on 3.11+, `test_sub
// (tests.test_calc.TestCalc)` before — becomes the contract's ID, file first as pytest's node id has it:
// `tests/test_calc.py > TestCalc > test_sub`. unittest names a module, not a file: the module is looked up the way
// unittest imported it, under the top-level folder its discovery put on sys.path (`discover -s tests` names
// `test_calc`, which is tests/test_calc.py), then under the working folder; without the files at hand (a capture read
// elsewhere) the parts before the first capitalised one are the module.
import * as fs from 'fs';
import * as path from 'path';
import { splitCommand } from '../../base/commandWords';
import { unittest } from './unittest';

/** Class and module fixtures unittest reports under the class or module they belong to, not as a test. */
const CLASS_FIXTURES = new Set(['setUpClass', 'tearDownClass']);
const MODULE_FIXTURES = new Set(['setUpModule', 'tearDownModule']);

/** Where a run was started: the working folder and the command, when known. */
export interface RunPlace {
  cwd?: string;
  command?: string;
}

/** What the unittest invocation in a command says about where its module names start. */
export interface UnittestInvocation {
  /** Folders (relative to the working folder) whose contents unittest imports by module name, nearest first. */
  roots: string[];
  /** The script a `python path/test_x.py` run calls `__main__`. */
  mainFile?: string;
}

/** The roots of `python -m unittest [discover [-s S] [-t T] | S P T]`, `manage.py test` or `python x.py`. */
export function unittestInvocation(command: string | undefined): UnittestInvocation {
  const split = command ? splitCommand(command.trim()) : null;
  if (!split?.ok) return { roots: ['.'] };
  let cd = '.';
  for (const words of split.commands) {
    if (words[0] === 'cd' && words.length === 2) {
      cd = within(cd, words[1]);
      continue;
    }
    for (let i = 0; i < words.length; i++) {
      const start = unittest.startsAt(words, i);
      if (start !== null) return { roots: unique([...discoverRoots(words.slice(start), cd), cd]) };
      if (/(^|\/)python[\d.]*$/.test(words[i]) && /\.py$/.test(words[i + 1] ?? '')) {
        const script = within(cd, words[i + 1]);
        return { roots: unique([path.posix.dirname(script), cd]), mainFile: script };
      }
    }
  }
  return { roots: [cd] };
}

/** `discover`'s top-level folder: -t, else the third positional, else the start folder (-s or the first positional). */
function discoverRoots(args: readonly string[], cd: string): string[] {
  if (args[0] !== 'discover') return [];
  const positionals: string[] = [];
  let start: string | undefined;
  let top: string | undefined;
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    const long = /^--(start-directory|top-level-directory)=(.*)$/.exec(a);
    if (long) (long[1] === 'start-directory' ? (start = long[2]) : (top = long[2]));
    else if (a === '-s' || a === '--start-directory') start = args[++i];
    else if (a === '-t' || a === '--top-level-directory') top = args[++i];
    else if (a === '-p' || a === '--pattern' || a === '-k') i++;
    else if (!a.startsWith('-')) positionals.push(a);
  }
  start ??= positionals[0];
  top ??= positionals[2] ?? start;
  // A dotted start (`discover -s tests.unit`) is a package imported from the working folder.
  return top && !top.includes('/') && /^\w+(\.\w+)+$/.test(top) ? [] : top ? [within(cd, top)] : [];
}

/** A folder named in the command, from the folder the command is in by then (an absolute one as it is). */
function within(cd: string, p: string): string {
  return path.posix.isAbsolute(p) ? path.posix.normalize(p) : path.posix.join(cd, p);
}

function unique(items: string[]): string[] {
  return [...new Set(items.map((p) => path.posix.normalize(p)))];
}

/** A test as unittest names it, read into the parts of its ID. */
export interface UnittestName {
  /** Workspace-relative test file. */
  file: string;
  /** Class path (and the fixture or test name), e.g. ['TestCalc', 'test_sub']. */
  titles: string[];
}

/** Turns unittest's names into IDs for one run; the module lookups are remembered for the run. */
export class UnittestNames {
  private readonly invocation: UnittestInvocation;
  private readonly modules = new Map<string, { file: string; rest: string[] }>();

  constructor(private readonly place: RunPlace = {}) {
    this.invocation = unittestInvocation(place.command);
  }

  /**
   * `name` and `dotted` as printed in `name (dotted)`: 3.11+ ends `dotted` with the name, older versions stop at the
   * class. A class fixture (`setUpClass (mod.Class)`) stays under its class, a module fixture under its module.
   */
  read(name: string, dotted: string): UnittestName {
    if (MODULE_FIXTURES.has(name)) return { file: this.module(dotted.split('.'), 0).file, titles: [name] };
    const owner = dotted.endsWith(`.${name}`) && !CLASS_FIXTURES.has(name) ? dotted.slice(0, -name.length - 1) : dotted;
    const { file, rest } = this.module(owner.split('.'), 1);
    return { file, titles: [...rest, name] };
  }

  /** The workspace file of a module unittest names (a load error's "Failed to import test module: tests.test_x"). */
  moduleFile(module: string): string {
    return this.module(module.split('.'), 0).file;
  }

  id(name: string, dotted: string): string {
    const { file, titles } = this.read(name, dotted);
    return [file, ...titles].join(' > ');
  }

  /** The longest leading parts that are a module file, leaving at least `classes` parts for the class path. */
  private module(parts: string[], classes: number): { file: string; rest: string[] } {
    const key = `${classes}\u0000${parts.join('.')}`;
    let found = this.modules.get(key);
    if (!found) {
      found = this.lookUp(parts, classes);
      this.modules.set(key, found);
    }
    return found;
  }

  private lookUp(parts: string[], classes: number): { file: string; rest: string[] } {
    if (parts[0] === '__main__' && this.invocation.mainFile) return { file: this.invocation.mainFile, rest: parts.slice(1) };
    const cwd = this.place.cwd;
    if (cwd) {
      for (const root of this.invocation.roots) {
        for (let i = parts.length - classes; i >= 1; i--) {
          const base = path.posix.join(root, ...parts.slice(0, i));
          for (const file of [`${base}.py`, `${base}/__init__.py`]) {
            if (isFile(path.resolve(cwd, file))) return { file: this.relative(file), rest: parts.slice(i) };
          }
        }
      }
    }
    // Not on disk (or no disk): classes are capitalised, modules are not (PEP 8, and every test suite seen).
    let i = parts.findIndex((p, k) => k > 0 && /^[A-Z]/.test(p));
    if (i < 0 || i > parts.length - classes) i = parts.length - classes;
    const module = parts.slice(0, Math.max(1, i));
    return { file: this.relative(`${path.posix.join(this.invocation.roots[0] ?? '.', ...module)}.py`), rest: parts.slice(module.length) };
  }

  /** Whether a traceback's path (absolute, as Python prints it) is this workspace-relative file. */
  sameFile(printed: string, file: string): boolean {
    const p = printed.replace(/\\/g, '/');
    if (this.place.cwd && path.isAbsolute(printed)) {
      const rel = this.relative(path.resolve(printed));
      // A path outside the working folder is a log read away from the checkout that wrote it (CI's, another clone's):
      // it is the file when it ends with it.
      if (!/^\.\.(?:\/|$)/.test(rel) && !path.isAbsolute(rel)) return rel === file;
    }
    return p === file || p.endsWith(`/${file}`);
  }

  /** Workspace-relative, with "/" (a root outside the workspace keeps its "../" or absolute path). */
  private relative(file: string): string {
    const cwd = this.place.cwd;
    const rel = cwd && path.posix.isAbsolute(file) ? path.relative(cwd, file).split(path.sep).join('/') : file;
    return path.posix.normalize(rel).replace(/^\.\//, '');
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

// Facts RSpec, minitest and test-unit share: how Bundler and ruby start them, the test task a Rakefile declares (minitest
// and test-unit both run through `rake test`), and whether a project's tests are test-unit's.
import * as fs from 'fs';
import * as path from 'path';
import type { ProtectedPart } from '../runner';

/** After `bundle exec` (or `bin/`'s binstub), the index of the program's word: `bundle exec rspec` → 2. */
export function afterBundleExec(w: readonly string[], i: number): number {
  return /(^|\/)bundle$/.test(w[i]) && w[i + 1] === 'exec' ? i + 2 : i;
}

/**
 * The blocks of a Rakefile that declare a task of tests (`Rake::TestTask.new`, `RSpec::Core::RakeTask.new`), from
 * their first line to the `end` at the same indentation: as comparable text, or '' when there is none.
 */
export function rakeTaskBlocks(declaration: RegExp): (text: string) => string {
  return (text) => {
    const lines = text.split(/\r?\n/);
    const kept: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!declaration.test(lines[i])) continue;
      const indent = lines[i].length - lines[i].trimStart().length;
      let j = i;
      if (/\bdo\b/.test(lines[i]) && !/\bend\s*$/.test(lines[i])) {
        for (j = i + 1; j < lines.length; j++) {
          const l = lines[j];
          if (l.trim() !== '' && l.length - l.trimStart().length === indent && /^\s*end\b/.test(l)) break;
        }
      }
      kept.push(...lines.slice(i, j + 1).map((l) => l.trimEnd()));
      i = j;
    }
    return kept.join('\n');
  };
}

export function exists(cwd: string, ...parts: string[]): boolean {
  try {
    fs.statSync(path.join(cwd, ...parts));
    return true;
  } catch {
    return false;
  }
}

export function readText(cwd: string, file: string): string | null {
  try {
    return fs.readFileSync(path.join(cwd, file), 'utf8');
  } catch {
    return null;
  }
}

/** The Rakefile of a folder (Rakefile, rakefile, Rakefile.rb), by name. */
export function rakefileOf(cwd: string): string | null {
  return ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb'].find((f) => exists(cwd, f)) ?? null;
}

/** The Rakefile's `Rake::TestTask.new … end` blocks: minitest's and test-unit's `rake test` alike (one part, listed once). */
export const RAKE_TEST_TASK: ProtectedPart = { file: 'Rakefile', what: "the Rakefile's test task", extract: rakeTaskBlocks(/\bRake::TestTask\.new\b/) };

/** A Rakefile that declares a test task (`Rake::TestTask.new`, or a plain `task :test`). */
export function rakeTestTask(cwd: string): string | null {
  const rakefile = rakefileOf(cwd);
  const text = rakefile ? readText(cwd, rakefile) : null;
  return text && /\bRake::TestTask\.new\b|^\s*task\s*\(?\s*:?['"]?test\b/m.test(text) ? rakefile : null;
}

const TEST_UNIT = /^\s*require\s*\(?\s*['"]test\/unit['"]|\bTest::Unit::TestCase\b/m;
/** Files read at most, and folders deep, when a project's tests are looked at: a glance, never a walk of a big tree. */
const MAX_FILES = 200;
const MAX_DEPTH = 4;

/**
 * Whether the project's tests are test-unit's: a Ruby file under test/ (its helpers included, as ruby/matrix's
 * test/lib/helper.rb) requires 'test/unit' or subclasses Test::Unit::TestCase. minitest's own `Minitest::Test` files
 * never do, so the two rooms never claim one project.
 */
export function usesTestUnit(cwd: string): boolean {
  let read = 0;
  const visit = (dir: string, depth: number): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(cwd, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return false;
    }
    for (const e of entries) {
      if (read >= MAX_FILES) return false;
      const rel = path.join(dir, e.name);
      if (e.isFile() && e.name.endsWith('.rb')) {
        read++;
        if (TEST_UNIT.test(readText(cwd, rel) ?? '')) return true;
      } else if (e.isDirectory() && depth < MAX_DEPTH && !e.name.startsWith('.') && visit(rel, depth + 1)) return true;
    }
    return false;
  };
  return visit('test', 1);
}

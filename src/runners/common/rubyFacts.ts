// Facts RSpec and minitest share: how Bundler and ruby start them, and the test task a Rakefile declares.
import * as fs from 'fs';
import * as path from 'path';

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

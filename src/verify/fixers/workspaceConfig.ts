// What in a workspace enables a tool: its configuration file (here or, as the tool looks, in a folder above), a build
// file naming its plugin, or the project's own package manifest asking for it.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function exists(cwd: string, rel: string): boolean {
  return fs.existsSync(path.join(cwd, rel));
}

/** One of the files is in `cwd` or a folder above it (how clang-format and EditorConfig find their configuration). */
export function upward(cwd: string, names: readonly string[]): boolean {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (names.some((n) => fs.existsSync(path.join(dir, n)))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

export function hasProjectFile(cwd: string): boolean {
  try {
    return fs.readdirSync(cwd).some((f) => /\.(?:sln|slnx|csproj|fsproj|vbproj)$/.test(f));
  } catch {
    return false;
  }
}

/** One of the files holds the text (a build file naming a plugin). */
export function fileNames(cwd: string, files: readonly string[], re: RegExp): boolean {
  return files.some((f) => {
    try {
      return re.test(fs.readFileSync(path.join(cwd, f), 'utf8'));
    } catch {
      return false;
    }
  });
}

/** package.json runs the tool in a script, or (`field`) configures it inline. */
export function packageNames(cwd: string, tool: string, field?: string): boolean {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')) as Record<string, unknown>;
    if (field && pkg[field] !== undefined) return true;
    const scripts = pkg.scripts && typeof pkg.scripts === 'object' ? Object.values(pkg.scripts as Record<string, unknown>) : [];
    return scripts.some((s) => typeof s === 'string' && new RegExp(`(?:^|[\\s/])${tool}(?:\\s|$)`).test(s));
  } catch {
    return false;
  }
}

/** The Gemfile (or gems.rb) asks for the gem. */
export function gemfileNames(cwd: string, gem: string): boolean {
  return fileNames(cwd, ['Gemfile', 'gems.rb'], new RegExp(`^\\s*gem\\s+['"]${gem}['"]`, 'm'));
}

/** composer.json requires the package (require or require-dev). */
export function composerNames(cwd: string, name: string): boolean {
  try {
    const composer = JSON.parse(fs.readFileSync(path.join(cwd, 'composer.json'), 'utf8')) as Record<string, unknown>;
    return ['require', 'require-dev'].some((k) => {
      const deps = composer[k];
      return !!deps && typeof deps === 'object' && name in (deps as Record<string, unknown>);
    });
  } catch {
    return false;
  }
}

// The exclude list is written as minimatch globs (workspace-relative). Git applies ignore rules while it walks,
// so we translate them to gitignore lines for the shadow repository's info/exclude: git then never even
// descends into node_modules or dist, which is what keeps a snapshot cheap.
import { braceExpand } from 'minimatch';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** One minimatch glob → equivalent gitignore lines (braces expanded, since gitignore has none). */
export function globToGitignore(glob: string): string[] {
  let g = glob.trim().replace(/\\/g, '/');
  if (!g || g.startsWith('#')) return [];
  let negate = '';
  if (g.startsWith('!')) {
    negate = '!';
    g = g.slice(1);
  }
  g = g.replace(/^\.\//, '').replace(/^\/+/, '');
  return braceExpand(g).map((one) => negate + toLine(one)).filter((l) => l.length > negate.length);
}

function toLine(g: string): string {
  // "x/**" means everything under x: excluding the directory itself stops git from walking into it.
  if (g.endsWith('/**')) {
    const base = g.slice(0, -3);
    if (base === '**' || base === '') return '*';
    return anchor(base) + '/';
  }
  return anchor(g);
}

// gitignore anchors a pattern that contains a slash to its file's directory; a bare name floats to any depth,
// like minimatch's "**/name". A leading "**/" is kept when the rest still contains a slash.
function anchor(p: string): string {
  if (p.startsWith('**/')) {
    const rest = p.slice(3);
    return rest.includes('/') ? p : escapeLeading(rest);
  }
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.includes('/') ? `/${trimmed}` : `/${escapeLeading(trimmed)}`;
}

function escapeLeading(p: string): string {
  return p.startsWith('#') || p.startsWith('!') ? `\\${p}` : p;
}

/**
 * Text of the shadow repository's info/exclude: the user's own .git/info/exclude (read, never written)
 * followed by the exclude globs.
 */
export function buildExcludeFile(workspace: string, excludes: string[], stateDirRel: string | null = null): string {
  const lines = ['# Written by Greenloop; rebuilt every time the snapshot store opens.'];
  try {
    const own = readFileSync(path.join(workspace, '.git', 'info', 'exclude'), 'utf8');
    lines.push('# from the workspace .git/info/exclude', ...own.split(/\r?\n/));
  } catch {
    // No repository, or a worktree whose .git is a file: nothing extra to honour.
  }
  lines.push('# Greenloop snapshot excludes');
  for (const g of excludes) lines.push(...globToGitignore(g));
  if (stateDirRel) lines.push('# Greenloop\'s own state folder', `/${literalGitignore(stateDirRel)}/`);
  return lines.join('\n') + '\n';
}

/** A path for a gitignore line that matches only itself (the line starts with "/", so "#" and "!" are plain). */
function literalGitignore(rel: string): string {
  return rel.replace(/[\\*?[\]]/g, '\\$&').replace(/ $/, '\\ ');
}

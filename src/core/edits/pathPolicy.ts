// Decides which workspace paths an edit may touch. Every edit (model blocks or an agent's own writes) passes
// through here before anything is written, so a refusal always comes back as a sentence the model can act on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import { CHECKER_CONFIG_FILES } from '../../shared/checkerConfigs';

export interface PathPolicyOptions {
  root: string;
  protectedGlobs: string[];
  allowTestEdits: boolean;
  /** The snapshot store's excludes: edits there could not be rolled back. */
  excludes: string[];
}

export interface PathPolicy {
  readonly root: string;
  readonly protectedGlobs: readonly string[];
  readonly allowTestEdits: boolean;
  readonly excludes: readonly string[];
}

/** rel: as the edit named it; realRel: where it really lands, symbolic links followed (what snapshots record). */
export type PathCheck = { ok: true; abs: string; rel: string; realRel: string } | { ok: false; reason: string };

const GLOB_OPTIONS = { dot: true, nocase: process.platform === 'win32' } as const;

/** Linux's PATH_MAX: no longer path can be opened, so none is worth resolving or matching against globs. */
export const MAX_PATH_CHARS = 4096;

/**
 * Deepest folder nesting an edit may name. Real projects stay far below it; resolving links costs the kernel time
 * that grows with the square of the depth (a 2,000-folder path takes 0.1 s per lookup), and a model could ask for that.
 */
export const MAX_PATH_DEPTH = 100;

export function makePathPolicy(opts: PathPolicyOptions): PathPolicy {
  return {
    root: path.resolve(opts.root),
    protectedGlobs: [...opts.protectedGlobs],
    allowTestEdits: opts.allowTestEdits,
    excludes: [...opts.excludes],
  };
}

/**
 * Turns what a model wrote into a clean workspace-relative POSIX path, or says why it cannot be one.
 * `src/../lib/a.ts` is accepted as `lib/a.ts`; anything that leaves the workspace is not.
 */
export function normalizeRelPath(raw: string): { ok: true; rel: string } | { ok: false; reason: string } {
  if (raw.length > MAX_PATH_CHARS) {
    return { ok: false, reason: `The path ${JSON.stringify(`${raw.slice(0, 60)}…`)} is ${raw.length.toLocaleString('en-US')} characters long, more than any file system allows (${MAX_PATH_CHARS}); use the file's workspace-relative path.` };
  }
  const shown = JSON.stringify(raw);
  if (raw.trim() === '') return { ok: false, reason: 'An edit has an empty file path; put the workspace-relative path on the line before the block.' };
  // A name with control characters is one no person could type and a terminal would obey when it is printed.
  const control = /[\u0000-\u001f\u007f-\u009f]/.exec(raw);
  if (control) {
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return { ok: false, reason: `The path ${shown} contains a control character (${code}); use a plain workspace-relative path.` };
  }
  const slashed = raw.trim().replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    return { ok: false, reason: `${raw} is an absolute path; use a path relative to the workspace root instead.` };
  }
  if (slashed === '~' || slashed.startsWith('~/')) {
    return { ok: false, reason: `${raw} points into a home directory; use a path relative to the workspace root instead.` };
  }
  const norm = path.posix.normalize(slashed).replace(/\/+$/, '');
  if (norm === '..' || norm.startsWith('../')) {
    return { ok: false, reason: `${raw} points outside the workspace; edit only files inside it, with no leading "..".` };
  }
  if (norm === '.' || norm === '') return { ok: false, reason: `${shown} is the workspace root, not a file; name the file to edit.` };
  const depth = norm.split('/').length - 1;
  if (depth > MAX_PATH_DEPTH) {
    return { ok: false, reason: `${norm.slice(0, 60)}… is ${depth.toLocaleString('en-US')} folders deep; Greenloop edits files at most ${MAX_PATH_DEPTH} folders deep.` };
  }
  return { ok: true, rel: norm };
}

// Names git refuses to record because some file system reads them as .git (NTFS trailing dots and spaces, 8.3 short
// names, HFS+ ignorable code points, any case): a file there could be neither snapshotted nor rolled back.
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
export function isGitDirLike(segment: string): boolean {
  const s = segment.replace(HFS_IGNORABLE, '').toLowerCase();
  return s.replace(/[. ]+$/, '') === '.git' || /^git~\d+$/.test(s);
}

function ruleRefusal(policy: PathPolicy, rel: string, shownAs: string, forReading = false): string | null {
  if (rel.split('/').some((seg) => seg.toLowerCase() === '.git')) {
    return `${shownAs} is inside .git/, which Greenloop never edits; change the project's own files instead.`;
  }
  if (rel.split('/').some(isGitDirLike)) {
    return `${shownAs} has a folder name git treats as .git (such as ".git." or "git~1"), so no snapshot could record or roll it back; pick another name.`;
  }
  const excluded = policy.excludes.find((g) => minimatch(rel, g, GLOB_OPTIONS));
  if (excluded !== undefined) {
    return `${shownAs} matches the snapshot exclude ${excluded}, so an edit there could not be rolled back; edit the source files instead.`;
  }
  // Tests may be read (the model must see what it is to satisfy), never edited.
  if (!forReading && isProtected(policy, rel)) {
    const tool = checkerConfigOf(policy, rel);
    if (tool) return `${shownAs} configures ${tool}, which decides what the checker reports; fix the code so ${tool} passes as configured instead.`;
    return `${shownAs} is a protected test file; fix the code under test instead.`;
  }
  return null;
}

/** The checker a protected file configures (mypy.ini → mypy), when one of the run's protected globs says so. */
function checkerConfigOf(policy: PathPolicy, rel: string): string | null {
  const norm = rel.replace(/\\/g, '/').replace(/^\.\//, '');
  const hit = CHECKER_CONFIG_FILES.find((f) => policy.protectedGlobs.includes(f.glob) && minimatch(norm, f.glob, GLOB_OPTIONS));
  return hit ? hit.tool : null;
}

/**
 * True when `rel` matches a protected-test glob and the user did not allow test edits.
 * The command actor uses it on paths an agent changed by itself.
 */
export function isProtected(policy: PathPolicy, rel: string): boolean {
  if (policy.allowTestEdits) return false;
  return matchesProtected(policy, rel);
}

/** Whether `rel` is a test file or test configuration, allowed to be edited or not. */
export function matchesProtected(policy: PathPolicy, rel: string): boolean {
  const norm = rel.replace(/\\/g, '/').replace(/^\.\//, '');
  return policy.protectedGlobs.some((g) => minimatch(norm, g, GLOB_OPTIONS));
}

function isInside(parent: string, child: string): boolean {
  const r = path.relative(parent, child);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/**
 * realpath of the deepest part of `parts` that exists below `realRoot` (itself real), with the missing tail appended
 * unchanged. A part exists only if every part above it does, so the deepest one is found by bisection: a few
 * lookups even for a path thousands of folders deep, whether it exists or not.
 */
function resolveExisting(realRoot: string, parts: string[]): string {
  const realOf = (depth: number): string | null => {
    try {
      return fs.realpathSync.native(path.join(realRoot, ...parts.slice(0, depth)));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // ENOENT: not there yet; ENOTDIR: a file where a directory is expected (reported later on write).
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw err;
    }
  };
  const whole = realOf(parts.length);
  if (whole !== null) return whole;
  let found = 0;
  let missing = parts.length;
  while (missing - found > 1) {
    const mid = (found + missing) >> 1;
    if (realOf(mid) === null) missing = mid;
    else found = mid;
  }
  return path.join(realOf(found) ?? realRoot, ...parts.slice(found));
}

/**
 * Checks a path whose content would go into a prompt: the same rules as an edit (inside the workspace after
 * realpath, not under .git, not excluded), except that test files may be read; and it must be a regular file.
 * Returns the real absolute path, or why not (the name may be shown; the content never is).
 */
export function checkReadable(policy: PathPolicy, raw: string): PathCheck {
  const norm = normalizeRelPath(raw);
  if (!norm.ok) return norm;
  const byRule = ruleRefusal(policy, norm.rel, norm.rel, true);
  if (byRule) return { ok: false, reason: byRule };
  let realRoot: string;
  let real: string;
  try {
    realRoot = fs.realpathSync.native(policy.root);
    real = fs.realpathSync.native(path.join(realRoot, ...norm.rel.split('/')));
  } catch {
    return { ok: false, reason: `${norm.rel} does not exist.` };
  }
  if (!isInside(realRoot, real)) return { ok: false, reason: `${norm.rel} leads outside the workspace.` };
  const realRel = path.relative(realRoot, real).split(path.sep).join('/');
  const byTarget = realRel === norm.rel ? null : ruleRefusal(policy, realRel, `${norm.rel} (a link to ${realRel})`, true);
  if (byTarget) return { ok: false, reason: byTarget };
  try {
    if (!fs.statSync(real).isFile()) return { ok: false, reason: `${norm.rel} is not a regular file.` };
  } catch {
    return { ok: false, reason: `${norm.rel} cannot be read.` };
  }
  return { ok: true, abs: real, rel: norm.rel, realRel };
}

/**
 * Checks one path an edit wants to write. Returns the absolute real path to write to (symlinks inside the
 * workspace are followed, so writing keeps the link) or one sentence saying why the edit is refused.
 */
export function checkPath(policy: PathPolicy, raw: string): PathCheck {
  const norm = normalizeRelPath(raw);
  if (!norm.ok) return norm;
  const rel = norm.rel;
  // Refused before any glob or lookup is spent on it: it could not be opened anyway.
  const full = policy.root.length + 1 + rel.length;
  if (full > MAX_PATH_CHARS) {
    return { ok: false, reason: `${rel.slice(0, 60)}… is too long: inside the workspace its path has ${full.toLocaleString('en-US')} characters, more than the file system allows (${MAX_PATH_CHARS}); use a shorter path.` };
  }
  const byRule = ruleRefusal(policy, rel, rel);
  if (byRule) return { ok: false, reason: byRule };

  let realRoot: string;
  let real: string;
  try {
    realRoot = fs.realpathSync.native(policy.root);
    real = resolveExisting(realRoot, rel.split('/'));
  } catch (err) {
    return { ok: false, reason: `${rel} could not be resolved (${(err as Error).message}); check that the workspace folder is readable.` };
  }
  if (!isInside(realRoot, real)) {
    return { ok: false, reason: `${rel} leads outside the workspace through a symbolic link; edit only files that really live inside it.` };
  }
  // A link inside the workspace could still lead into .git/, an excluded folder or the tests.
  const realRel = path.relative(realRoot, real).split(path.sep).join('/');
  if (realRel === '') return { ok: false, reason: `${rel} is the workspace root, not a file; name the file to edit.` };
  if (realRel !== rel) {
    const byTarget = ruleRefusal(policy, realRel, `${rel} (a link to ${realRel})`);
    if (byTarget) return { ok: false, reason: byTarget };
  }
  return { ok: true, abs: real, rel, realRel };
}

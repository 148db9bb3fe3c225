// What RSpec and minitest share: Ruby's paths, backtrace frames and the way an uncaught exception (a SyntaxError while
// a test file is required) is printed, read into a load error with the file and line where the code broke.
import * as path from 'path';
import type { LoadErrorFile } from '../../ports/verifier';
import { keepLine } from './lineParser';

/** `path:line` of a Ruby frame or a syntax error: `./spec/x_spec.rb:3`, `/abs/lib/a.rb:20`. */
const SYNTAX_ERROR = /(?:^|\s|: )((?:[A-Za-z]:)?[^\s:'"`<>]+\.rb):(\d+): (?:syntax errors?\b.*)$/;
/** A backtrace frame (`# ./spec/a_spec.rb:1:in …`, `\tfrom lib/a.rb:3:in …`, `    test/a_test.rb:9:in …`). */
const FRAME = /^(?:#\s*|\s*from\s+|\s+)?((?:[A-Za-z]:)?[^\s:'"`<>]+\.rb):(\d+):in\b/;
/** An uncaught exception, as Ruby prints it before it exits: `FILE:LINE:in 'METHOD': MESSAGE (CLASS)`. */
const CRASH = /^(<internal:[^>]+>|[^\s:]+\.rb):(\d+):in [`']([^']*)': (.*)$/;

/** A path Ruby printed, relative to the working folder when it is under it, without `./`. */
export function rubyPath(p: string, cwd: string | undefined): string {
  let rel = p;
  if (cwd && path.isAbsolute(p)) {
    const r = path.relative(cwd, p);
    if (!r.startsWith('..') && !path.isAbsolute(r)) rel = r;
  }
  return rel.split(path.sep).join('/').replace(/^(?:\.\/)+/, '');
}

/** Frames in Ruby's own library, installed gems or the interpreter: never the workspace's code. */
export function isLibraryPath(p: string): boolean {
  return /^<internal:/.test(p) || /(?:^|\/)(?:gems|rubygems-integration|vendor_ruby|lib\/ruby)\//.test(p) || /^\/usr\//.test(p);
}

/** The first syntax error's place in some lines, relative to cwd. */
export function syntaxErrorIn(lines: readonly string[], cwd: string | undefined): { file: string; line: number } | null {
  for (const l of lines) {
    const m = SYNTAX_ERROR.exec(l);
    if (m) return { file: rubyPath(m[1], cwd), line: Number(m[2]) };
  }
  return null;
}

/** The first backtrace frame of the workspace's own code, relative to cwd. */
export function workspaceFrame(lines: readonly string[], cwd: string | undefined, wanted: (file: string) => boolean = () => true): { file: string; line: number } | null {
  for (const l of lines) {
    const m = FRAME.exec(l);
    if (!m || isLibraryPath(m[1])) continue;
    const file = rubyPath(m[1], cwd);
    if (wanted(file)) return { file, line: Number(m[2]) };
  }
  return null;
}

/** Whether a line starts Ruby's report of an uncaught exception (the process is about to exit without its tests). */
export function isCrashLine(line: string): boolean {
  return CRASH.test(line);
}

/**
 * Whether `line` goes on with the uncaught exception's report being read (its message lines, then `\tfrom …` frames),
 * kept in `crash` when it does; `runnerStart` is the line a runner prints when it starts again (rake's next task).
 */
export function continuesCrash(crash: string[], line: string, runnerStart: RegExp): boolean {
  if (!/^\s+from\s/.test(line) && (crash.length >= 20 || runnerStart.test(line) || isCrashLine(line))) return false;
  keepLine(crash, line);
  return true;
}

/**
 * The load error an uncaught exception's report says: the syntax error's file and line when it is one, else the first
 * frame in the workspace (a NameError while a test file is required), else the frame Ruby printed first.
 */
export function crashLoadError(lines: readonly string[], cwd: string | undefined): LoadErrorFile {
  const message = lines.filter((l) => !/^\s*from\s/.test(l) || !isLibraryPath(l.replace(/^\s*from\s+/, ''))).join('\n').trim();
  const at = syntaxErrorIn(lines, cwd) ?? workspaceFrame(lines, cwd);
  if (at) return { file: at.file, line: at.line, message };
  const m = CRASH.exec(lines[0] ?? '');
  return m && !isLibraryPath(m[1]) ? { file: rubyPath(m[1], cwd), line: Number(m[2]), message } : { file: '', message };
}

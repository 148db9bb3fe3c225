// What a C or C++ build prints when it fails before any test runs — GCC's and Clang's `file:line:col: error:`, the
// linker's undefined references, CMake's `CMake Error at file:line`, make's and ninja's own stops — read line by line
// into the files that did not build (load errors, never "not green, no tests"). Shared by ctest, gtest and Catch2,
// whose commands build first (`cmake --build build && ctest …`).
import type { LoadErrorFile } from '../../ports/verifier';
import { keepLine } from './lineParser';

const COMPILER_ERROR = /^(.+?):(\d+):(?:\d+:)? (?:fatal error|error): (.*)$/;
const CMAKE_ERROR = /^CMake Error at (.+?):(\d+)\b/;
const CMAKE_ERROR_PLAIN = /^CMake Error: (.*)$/;
// `/usr/bin/ld: CMakeFiles/t.dir/src/a.cpp.o: in function `f()':` then `a.cpp:(.text+0x1a): undefined reference to `g()'`.
const LINKER_OBJECT = /^(?:\S*\/)?ld(?:\.\w+)?: (?:\S*CMakeFiles\/[^/]+\.dir\/)?(.+?)\.o: in function/;
const LINKER_ERROR = /(?:undefined reference to|multiple definition of|cannot find -l)\s*(.*)$|^collect2: error: ld returned|^clang(?:\+\+)?: error: linker command failed/;
// make's and ninja's own stops: the build failed, whatever else was printed.
const BUILD_STOPPED = /^(?:g?make(?:\[\d+\])?: \*\*\* |ninja: build stopped|FAILED: )/;
// Lines that end a compiler message's context (the next error starts its own).
const CONTEXT_END = /^(?:g?make(?:\[\d+\])?: |\[\s*\d+%\] |ninja: |FAILED: |In file included from |\S.*: In (?:function|member function|static member function|constructor|destructor|instantiation of|lambda function)\b)/;

/** A path as the workspace names it: relative to `cwd` when it is inside it. */
export function workspacePath(file: string, cwd: string | undefined): string {
  const f = file.replace(/\\/g, '/');
  if (!cwd || !f.startsWith('/')) return f.replace(/^\.\//, '');
  const root = cwd.replace(/\\/g, '/').replace(/\/+$/, '');
  return f.startsWith(`${root}/`) ? f.slice(root.length + 1) : f;
}

/** Whether a text looks like a failed C/C++ build: how sure, in [0,1]. */
export function buildFailureScore(text: string): number {
  let score = 0;
  for (const line of text.split('\n')) {
    if (COMPILER_ERROR.test(line) || CMAKE_ERROR.test(line)) score += 2;
    else if (LINKER_ERROR.test(line)) score += 2;
    else if (BUILD_STOPPED.test(line)) score += 1;
    if (score >= 4) break;
  }
  return Math.min(1, score / 4) * 0.9;
}

/** Reads a build's errors one line at a time; `errors()` gives one entry per file and line, the first message kept. */
export class BuildErrors {
  private readonly found: Array<{ file: string; line?: number; lines: string[] }> = [];
  private current: string[] | null = null;
  private linkerObject: string | null = null;
  private stopped = false;

  constructor(private readonly cwd?: string) {}

  /** One line; true when it was a build's (the caller reads it no further). */
  push(line: string): boolean {
    const compiler = /^\s/.test(line) ? null : COMPILER_ERROR.exec(line);
    if (compiler) return this.start(workspacePath(compiler[1], this.cwd), Number(compiler[2]), line);
    const cmake = CMAKE_ERROR.exec(line);
    if (cmake) return this.start(workspacePath(cmake[1], this.cwd), Number(cmake[2]), line);
    if (CMAKE_ERROR_PLAIN.test(line)) return this.start('CMakeLists.txt', undefined, line);
    const object = LINKER_OBJECT.exec(line);
    if (object) {
      this.linkerObject = object[1];
      return true;
    }
    if (LINKER_ERROR.test(line)) return this.start(this.linkerObject ?? 'the link step', undefined, line);
    if (BUILD_STOPPED.test(line)) {
      this.stopped = true;
      this.current = null;
      return true;
    }
    if (this.current) {
      if (!CONTEXT_END.test(line)) {
        keepLine(this.current, line);
        return true;
      }
      this.current = null;
    }
    return false;
  }

  /** Whether the build failed (an error read, or make or ninja said it stopped). */
  get failed(): boolean {
    return this.found.length > 0 || this.stopped;
  }

  errors(): LoadErrorFile[] {
    if (this.found.length === 0 && this.stopped) return [{ file: 'the build', message: 'the build stopped before any test ran' }];
    return this.found.map(({ file, line, lines }) => {
      const message = lines.join('\n').trimEnd();
      return line === undefined ? { file, message } : { file, line, message };
    });
  }

  private start(file: string, line: number | undefined, text: string): true {
    // One entry per place: the same error seen again (a header compiled twice) adds nothing.
    if (this.found.some((e) => e.file === file && e.line === line)) {
      this.current = null;
      return true;
    }
    const entry = { file, ...(line === undefined ? {} : { line }), lines: [text] };
    this.found.push(entry);
    // The message grows with the context lines that follow (the source line and its caret).
    this.current = entry.lines;
    return true;
  }
}

// Tool results as real agents hand them to their model, for gateway tests: a `node --test` run as qwen's shell tool
// wraps it (with its process group id), as Codex's exec tool wraps it (chunk id, wall time, token count), and as
// Claude Code's Bash tool returns it (bare). Timings, ids and counts differ on every call, as they do for real.
let calls = 0;

/** node --test's spec output: each failing test with an assertion, each passing one, then the summary. */
export function nodeTestOutput(failing: readonly string[], passing: readonly string[] = []): string {
  calls += 1;
  const ms = () => `${(calls * 7.31 + Math.random()).toFixed(6)}ms`;
  const lines: string[] = [];
  for (const t of passing) lines.push(`✔ ${t} (${ms()})`);
  for (const t of failing) {
    lines.push(`✖ ${t} (${ms()})`, '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', '', '  -1 !== 5', '', '      at TestContext.<anonymous> (/tmp/gl-agent-ws-x/calc3/test/calc.test.js:7:10)');
  }
  const total = failing.length + passing.length;
  lines.push(`ℹ tests ${total}`, 'ℹ suites 0', `ℹ pass ${passing.length}`, `ℹ fail ${failing.length}`, 'ℹ cancelled 0', 'ℹ skipped 0', 'ℹ todo 0', `ℹ duration_ms ${(40 + calls).toFixed(3)}`);
  return lines.join('\n');
}

/** What qwen's run_shell_command returns for `npm test`. */
export function qwenShellResult(output: string, exitCode = 1): string {
  return `Command: npm test\nDirectory: (root)\nOutput: \n> calc3@1.0.0 test\n> node --test\n\n${output}\nError: (none)\nExit Code: ${exitCode}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: ${10000 + calls}`;
}

/** What Codex's exec_command returns: a new chunk id and wall time each call, and a token count that moves with the output. */
export function codexExecResult(output: string, exitCode = 1): string {
  const chunk = Math.random().toString(16).slice(2, 8);
  return `Chunk ID: ${chunk}\nWall time: ${(0.2 + Math.random()).toFixed(4)} seconds\nProcess exited with code ${exitCode}\nOriginal token count: ${Math.ceil(output.length / 4)}\nOutput:\n${output}`;
}

/** qwen's edit tool result, showing the edited lines: each repeat of a growing edit shows one comment more. */
export function qwenEditResult(comments: number): string {
  return `The file: /tmp/gl-agent-ws-x/calc3/calc.js has been updated. Showing lines 1-7 of 24 from the edited file:\n\n---\n\n'use strict';\n\nfunction add(a, b) {${' // operands checked'.repeat(comments)}\n  return a - b;\n}`;
}

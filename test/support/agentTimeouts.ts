// How long a run of a real agent CLI (qwen, Claude Code, Codex) may take before a test or benchmark calls it hung.
// Their verdicts are counts — requests, attempts, failing tests — never times: these clocks only catch a hang. A run
// takes 20-60 s on an idle 2-core machine and up to about 250 s was measured beside two CPU burners and other test
// runs; the margins below are several times that.

/** A test that runs real agents (mocha's timeout for it). */
export const REAL_AGENT_TEST_MS = 900_000;

/** One `greenloop fix` or agent process inside such a test: killed a little before the test's own limit, so the test
 * says what it saw. */
export const REAL_AGENT_RUN_MS = 840_000;

// `greenloop verify`: runs the verifier once and prints the witness.
import { parseArgs } from 'util';
import { VerifyError } from '../ports/verifier';
import { buildVerifier, timeoutFlag } from '../flags/verifierFlags';
import { VERIFY_FLAGS } from '../flags/commandFlags';
import { FLAG } from '../flags/flagCatalog';
import { EXIT, UsageError } from '../flags/usageError';
import { say } from './say';
import { jsonText } from '../base/terminalText';
import { secretsFromFlags } from '../flags/secretFlags';
import { notStartedSentence } from '../flags/answerFlags';
import { runSecrets } from '../base/secretEnv';

/**
 * Prints the witness; a run that cannot start (a bad flag or value, a missing folder, a test command that cannot run)
 * prints `{"green": false, "outcome": "error", "reasonText": <stderr's sentence>}` instead, so stdout is JSON either way.
 */
export async function verifyCommand(argv: string[]): Promise<number> {
  try {
    return await verifyOnce(argv);
  } catch (err) {
    const { redactor } = runSecrets({ env: process.env });
    process.stdout.write(`${jsonText({ green: false, outcome: 'error', reasonText: notStartedSentence(err, redactor) })}\n`);
    throw err;
  }
}

async function verifyOnce(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: VERIFY_FLAGS, strict: true });
  const { redactor, withheld } = secretsFromFlags(values);
  const { verifier } = buildVerifier(values, timeoutFlag(values, 'timeout-s', FLAG['timeout-s'].defaultValue), withheld);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const w = await verifier.verify(controller.signal);
    const out = {
      green: w.green,
      failing: w.failing,
      diagnostics: w.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, code: d.code, message: d.message, source: d.source ?? 'tsc' })),
      loadError: w.loadError,
      loadErrorFiles: w.loadErrorFiles,
      exitCode: w.exitCode,
      timedOut: w.timedOut,
      durationMs: w.durationMs,
      signature: w.signature,
      runner: w.runner,
      ran: w.ranCount,
      passedCount: w.passedCount,
      failedCount: w.failedCount,
      skippedCount: w.skippedCount,
      failures: w.failures,
      loadErrors: w.loadErrors,
      stoppedEarly: w.stoppedEarly,
      commandFailure: w.commandFailure,
      warnings: w.warnings,
    };
    for (const warning of w.warnings) say(`greenloop: warning: ${redactor.text(warning)}`);
    process.stdout.write(`${jsonText(redactor.json(out))}\n`);
    return w.green ? EXIT.green : EXIT.notGreen;
  } catch (err) {
    if (err instanceof VerifyError) throw new UsageError(err.message);
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

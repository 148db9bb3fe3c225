// The GitHub Action's entry (dist/action.js, run by action.yml). It runs the one `greenloop fix` there is — the bundled
// CLI next to it, as a child process with `--format github`, which writes the summary, annotations, outputs, report
// and patch — and then, when asked, proposes a green run's fix as a pull request.
// Required instead of run (by the CLI, for its --format github writers), it only exports them.
import * as core from '@actions/core';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { planFromInputs } from './inputs';
import type { ActionPlan } from './inputs';
import { patchPathFor } from './githubFormat';
import { proposeFix } from './pullRequest';
import { escapeHtml } from './jobSummary';
import type { AnyReport } from './runFacts';
import { platformCredentialVariables, withoutVariables } from '../base/secretEnv';
import { localPlaces, withoutLocalPaths } from './runPlace';

export { finishRun, groupedProgress, mask } from './githubFormat';

/** The contract's exit codes of `greenloop fix`, which the step keeps: 0 green, 1 not green, 2 setup, 3 internal. */
const SETUP = 2;

export async function runAction(): Promise<number> {
  let plan: ActionPlan;
  try {
    plan = planFromInputs(inputReader(process.env), process.env);
  } catch (err) {
    core.setFailed((err as Error).message);
    return SETUP;
  }
  plan.secrets.forEach((s) => core.setSecret(s));
  plan.notes.forEach((n) => core.warning(n));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  const summaryStart = summaryFile && fs.existsSync(summaryFile) ? fs.statSync(summaryFile).size : 0;

  // A report or patch left by an earlier step must never pass for this run's.
  for (const stale of [plan.reportPath, patchPathFor(plan.reportPath)]) fs.rmSync(stale, { force: true });
  const code = await runFix(plan);
  const report = readReport(plan.reportPath);
  if (!report) {
    core.setFailed(`greenloop fix ended (exit ${code}) without writing its report at ${plan.reportPath}; its log above says why.`);
    return code === 0 ? 3 : code;
  }
  if (plan.pullRequest.open) {
    // The body is exactly what this run added to the job summary.
    const body = summaryFile && fs.existsSync(summaryFile) ? fs.readFileSync(summaryFile, 'utf8').slice(summaryStart) : withoutLocalPaths(report.reasonText, localPlaces(process.env));
    const proposal = await proposeFix({
      report, patchPath: patchPathFor(plan.reportPath), body, token: plan.pullRequest.token, branch: plan.pullRequest.branch, cwd: plan.cwd, env: process.env,
    }).catch((err: Error) => ({ url: null, sentence: `No pull request was opened: ${err.message.split('\n')[0]}` }));
    core.info(proposal.sentence);
    core.setOutput('pull-request-url', proposal.url ?? '');
    core.setOutput('pull-request-note', proposal.sentence);
    if (summaryFile) await core.summary.addRaw(`<p><b>Pull request:</b> ${escapeHtml(proposal.sentence)}</p>`, true).write();
  }
  return code;
}

/**
 * action.yml hands its inputs over as one JSON object (GREENLOOP_INPUTS: a composite action's run step gets no INPUT_*
 * variables); without it, @actions/core's INPUT_* variables.
 */
function inputReader(env: NodeJS.ProcessEnv): (name: string) => string {
  if (!env.GREENLOOP_INPUTS) return (name) => core.getInput(name);
  const inputs = JSON.parse(env.GREENLOOP_INPUTS) as Record<string, unknown>;
  return (name) => (inputs[name] === undefined || inputs[name] === null ? '' : String(inputs[name]));
}

/**
 * What the fix run inherits: the job's environment without the inputs (they hold the GitHub token), the platform's
 * credentials and any variable holding the token input's value, but for those `pass-env` names. The test command runs
 * the code under test and an agent runs a model's commands; the CLI withholds the platform's credentials from them
 * too (base/secretEnv.ts), and only this process keeps the token, for the pull request.
 */
export function childEnv(env: NodeJS.ProcessEnv, plan: Pick<ActionPlan, 'pullRequest' | 'passEnv'>): NodeJS.ProcessEnv {
  const inputs = /^(INPUT_|GREENLOOP_INPUTS$)/;
  const credentials = platformCredentialVariables(env, [plan.pullRequest.token]).filter((name) => !plan.passEnv.includes(name));
  return withoutVariables(Object.fromEntries(Object.entries(env).filter(([k]) => !inputs.test(k))), credentials);
}

/** `node dist/cli.js fix … --format github`, with the job's cancel (SIGINT, then SIGTERM) passed on to it. */
function runFix(plan: ActionPlan): Promise<number> {
  const cli = path.join(__dirname, 'cli.js');
  const args = [cli, 'fix', ...plan.args, '--format', 'github', '--report', plan.reportPath];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: fs.existsSync(plan.workspace) ? plan.workspace : process.cwd(), stdio: ['ignore', 'inherit', 'inherit'], env: childEnv(process.env, plan) });
    const forward = (signal: NodeJS.Signals) => () => {
      if (child.exitCode === null) child.kill(signal);
    };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.on('error', (err) => {
      core.setFailed(`Could not start ${cli}: ${err.message}`);
      resolve(3);
    });
    child.on('close', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 1 : 3));
    });
  });
}

function readReport(file: string): AnyReport | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as AnyReport;
  } catch {
    return null;
  }
}

if (require.main === module) {
  runAction().then(
    (code) => {
      process.exitCode = code;
    },
    (err: Error) => {
      core.setFailed(`Internal error: ${err.message.split('\n')[0]}`);
      process.exitCode = 3;
    },
  );
}

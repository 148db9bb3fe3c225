// What a person can do about a setup problem (a test command that cannot run, a model that cannot be reached, an
// untrusted workspace), as buttons: the toast and the escalation panel offer the same ones. Plain data, no vscode:
// the host maps each id to its command, so a webview can only ever ask for one of these.

export type SetupActionId = 'openSettings' | 'openTasks' | 'manageTrust' | 'setApiKey' | 'selectModel';

export interface SetupAction {
  id: SetupActionId;
  label: string;
  /** The setting Open Settings goes to. */
  setting?: string;
}

export const SETUP_ACTION_IDS: readonly SetupActionId[] = ['openSettings', 'openTasks', 'manageTrust', 'setApiKey', 'selectModel'];

const settings = (setting: string): SetupAction => ({ id: 'openSettings', label: 'Open Settings', setting });
const TASKS: SetupAction = { id: 'openTasks', label: 'Open tasks.json' };

/**
 * The buttons for a run that stopped before the loop (or could not start), most useful first. `testSource` says
 * where the test command came from (`task "test"`, `setting greenloop.testCommand`, …) when the host knows it.
 */
export function setupActionsFor(reason: string | null, text: string, testSource?: string): SetupAction[] {
  if (/trusted workspace|Workspace Trust/i.test(text)) return [{ id: 'manageTrust', label: 'Manage Workspace Trust' }];
  if (/^tsc is on but/.test(text)) return [settings('greenloop.tsc')];
  if (reason === 'actor-error') {
    if (/\((?:401|403)\)|API key/i.test(text)) return [{ id: 'setApiKey', label: 'Set API key' }, settings('greenloop.model.baseUrl')];
    if (/Select model|no longer available|may not use/i.test(text)) return [{ id: 'selectModel', label: 'Select model' }];
    return [settings('greenloop.model.baseUrl'), { id: 'selectModel', label: 'Select model' }];
  }
  if (reason === 'verify-error' || /No test command|test task|test command/i.test(text)) {
    if (/did not finish within/.test(text)) return [settings('greenloop.verifyTimeoutSeconds')];
    if (testSource?.startsWith('task ')) return [TASKS];
    if (testSource?.startsWith('setting ')) return [settings('greenloop.testCommand')];
    return [TASKS, settings('greenloop.testCommand')];
  }
  return [];
}

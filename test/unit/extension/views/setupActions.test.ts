// A setup problem ends in one sentence with the button that fixes it: in the toast and at the top of the panel.
import * as assert from 'assert';
import { setupActionsFor } from '../../../../src/shared/setupActions';
import { buildPanelData } from '../../../../src/extension/views/panelData';
import { iteration, record } from './records';

const labels = (actions: { label: string; setting?: string }[]) => actions.map((a) => (a.setting ? `${a.label} @ ${a.setting}` : a.label));

describe('setup problems carry the buttons that fix them', () => {
  it('each kind of setup problem gets its button', () => {
    assert.deepStrictEqual(labels(setupActionsFor('actor-error', 'The model server refused the request (401): Incorrect API key provided: ***.')), ['Set API key', 'Open Settings @ greenloop.model.baseUrl']);
    assert.deepStrictEqual(labels(setupActionsFor('actor-error', 'Could not connect to the model server at http://127.0.0.1:9/v1 (connection refused); check that it is running.')), ['Open Settings @ greenloop.model.baseUrl', 'Select model']);
    assert.deepStrictEqual(labels(setupActionsFor('actor-error', 'The model Fake Model is no longer available; choose another with "Greenloop: Select model".')), ['Select model']);
    const missing = 'The test command `npm run test:ci` cannot run: package.json in /ws has no "test:ci" script; add that script or choose another test command.';
    assert.deepStrictEqual(labels(setupActionsFor('verify-error', missing, 'task "test"')), ['Open tasks.json']);
    assert.deepStrictEqual(labels(setupActionsFor('verify-error', missing, 'setting greenloop.testCommand')), ['Open Settings @ greenloop.testCommand']);
    assert.deepStrictEqual(labels(setupActionsFor('verify-error', 'The test command did not finish within 300 s on the unchanged workspace; raise the verifier timeout or fix the hang first.')), ['Open Settings @ greenloop.verifyTimeoutSeconds']);
    assert.deepStrictEqual(labels(setupActionsFor(null, 'Greenloop runs your tests, which runs code from this workspace, so it needs a trusted workspace; trust it with "Workspaces: Manage Workspace Trust" and try again.')), ['Manage Workspace Trust']);
    assert.deepStrictEqual(labels(setupActionsFor(null, 'No test command for cart: add a Test task (Terminal › Configure Tasks, group "test"), set greenloop.testCommand, or add a "test" script to package.json.')), ['Open tasks.json', 'Open Settings @ greenloop.testCommand']);
  });

  it('the panel of a run stopped on an actor error leads with them; a stuck run has none', () => {
    const actor = buildPanelData(record({ reason: 'actor-error', reasonText: 'The model server refused the request (401): check the API key and its environment variable.', iterations: [iteration(1)] }), 'cart', []);
    assert.deepStrictEqual(labels(actor.setupActions ?? []), ['Set API key', 'Open Settings @ greenloop.model.baseUrl']);
    const verify = buildPanelData(record({ reason: 'verify-error', reasonText: 'The test command `npm run test:ci` cannot run: package.json in /ws has no "test:ci" script; add that script or choose another test command.' }), 'cart', []);
    assert.deepStrictEqual(labels(verify.setupActions ?? []), ['Open tasks.json', 'Open Settings @ greenloop.testCommand']);
    assert.deepStrictEqual(buildPanelData(record(), 'cart', []).setupActions, []);
  });
});

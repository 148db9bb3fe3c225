import * as assert from 'assert';
import { fake } from './support/fakeVscode';
import { ConfigReader, SettingsError } from '../../../src/extension/config';
import { DEFAULT_AGENT_SETTINGS } from '../../../src/shared/config';
import { DEFAULT_LOOP_CONFIG } from '../../../src/session/loopDefaults';

describe('extension settings', () => {
  beforeEach(() => fake.reset());

  it('gives the core defaults when nothing is set', () => {
    const s = new ConfigReader().read();
    assert.deepStrictEqual(s.loop, DEFAULT_LOOP_CONFIG);
    assert.strictEqual(s.tsc, 'auto');
    assert.strictEqual(s.testCommand, '');
    assert.deepStrictEqual(s.model, { provider: 'vscode-lm', baseUrl: '', name: '', requestTimeoutS: 120 });
  });

  it('declares in package.json the same defaults the core uses, for every loop setting', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const manifest = require('../../../package.json').contributes.configuration.properties as Record<string, { default: unknown }>;
    const setting: Record<string, string> = { verifyTimeoutS: 'verifyTimeoutSeconds' };
    for (const [field, value] of Object.entries(DEFAULT_LOOP_CONFIG)) {
      const key = `greenloop.${setting[field] ?? field}`;
      assert.ok(manifest[key], `${key} is not declared`);
      assert.deepStrictEqual(manifest[key].default, value, key);
    }
  });

  it('reads every budget and option a person set', () => {
    const values: Record<string, unknown> = {
      maxIterations: 3, maxTokens: 5000, maxMinutes: 2, verifyTimeoutSeconds: 40, patience: 4, onGiveUp: 'restore-baseline',
      protectedGlobs: ['spec/**'], allowTestEdits: true, snapshotExcludes: ['tmp/**'], testCommand: ' pytest -q ', tsc: 'off',
      'model.provider': 'openai-compatible', 'model.baseUrl': 'http://127.0.0.1:9/v1', 'model.name': 'm',
      flakyReruns: 0, crossRunLimit: 5, 'model.requestTimeoutSeconds': 30, maxAnswerBytes: 500_000, contextTokens: 3000,
    };
    for (const [k, v] of Object.entries(values)) fake.settings.set(`greenloop.${k}`, v);
    const s = new ConfigReader().read();
    assert.deepStrictEqual(s.loop, {
      maxIterations: 3, maxTokens: 5000, maxMinutes: 2, verifyTimeoutS: 40, patience: 4, onGiveUp: 'restore-baseline',
      protectedGlobs: ['spec/**'], allowTestEdits: true, snapshotExcludes: ['tmp/**'], flakyReruns: 0, crossRunLimit: 5,
      maxAnswerBytes: 500_000, contextTokens: 3000,
    });
    assert.strictEqual(s.testCommand, 'pytest -q');
    assert.strictEqual(s.tsc, 'off');
    assert.deepStrictEqual(s.model, { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', name: 'm', requestTimeoutS: 30 });
  });

  const bad: [string, unknown, RegExp][] = [
    ['maxIterations', 0, /^The setting greenloop\.maxIterations must be a whole number of at least 1 \(got 0\)\./],
    ['maxIterations', '8', /^The setting greenloop\.maxIterations must be a number \(got "8"\)\./],
    ['verifyTimeoutSeconds', -1, /^The setting greenloop\.verifyTimeoutSeconds must be a positive number of seconds/],
    ['maxTokens', -5, /^The setting greenloop\.maxTokens must be 0 \(no limit\)/],
    ['onGiveUp', 'panic', /^The setting greenloop\.onGiveUp must be one of keep-best, restore-baseline, keep-last \(got "panic"\)\./],
    ['protectedGlobs', 'src/**', /^The setting greenloop\.protectedGlobs must be a list of non-empty glob strings/],
    ['tsc', 'yes', /^The setting greenloop\.tsc must be one of auto, on, off/],
    ['allowTestEdits', 'true', /^The setting greenloop\.allowTestEdits must be true or false/],
    ['flakyReruns', -1, /^The setting greenloop\.flakyReruns must be a whole number, 0 or more \(got -1\)\./],
    ['crossRunLimit', 1.5, /^The setting greenloop\.crossRunLimit must be a whole number, 0 or more/],
    ['maxAnswerBytes', 999, /^The setting greenloop\.maxAnswerBytes must be a whole number of at least 1000 \(got 999\)\./],
    ['maxAnswerBytes', 1.5e6 + 0.5, /^The setting greenloop\.maxAnswerBytes must be a whole number of at least 1000/],
    ['contextTokens', 100, /^The setting greenloop\.contextTokens must be a whole number of at least 500 \(got 100\)\./],
    ['model.requestTimeoutSeconds', 0, /^The setting greenloop\.model\.requestTimeoutSeconds must be a positive number of seconds/],
  ];
  for (const [key, value, sentence] of bad) {
    it(`refuses greenloop.${key} = ${JSON.stringify(value)} with one sentence naming the setting`, () => {
      fake.settings.set(`greenloop.${key}`, value);
      assert.throws(() => new ConfigReader().read(), (err: Error) => {
        assert.ok(err instanceof SettingsError);
        assert.match(err.message, sentence);
        assert.match(err.message, /Fix it in Settings \(search "greenloop"\) and run again\.$/);
        return true;
      });
    });
  }

  it('reads the agent CLI settings, with the defaults the CLI uses and package.json declares', () => {
    assert.deepStrictEqual(new ConfigReader().read().agent, { preset: 'qwen', command: '', upstream: '', requestsPerAttempt: 12, timeoutS: 600 });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const manifest = require('../../../package.json').contributes.configuration.properties as Record<string, { default: unknown; enum?: string[] }>;
    assert.strictEqual(manifest['greenloop.agent.requestsPerAttempt'].default, DEFAULT_AGENT_SETTINGS.requestsPerAttempt);
    assert.strictEqual(manifest['greenloop.agent.timeoutSeconds'].default, DEFAULT_AGENT_SETTINGS.timeoutS);
    assert.deepStrictEqual(manifest['greenloop.model.provider'].enum, ['vscode-lm', 'openai-compatible', 'agent']);
    const values: Record<string, unknown> = {
      'model.provider': 'agent', 'agent.preset': 'aider', 'agent.command': ' my-agent --yes ', 'agent.upstream': 'http://127.0.0.1:11434/v1',
      'agent.requestsPerAttempt': 3, 'agent.timeoutSeconds': 45,
    };
    for (const [k, v] of Object.entries(values)) fake.settings.set(`greenloop.${k}`, v);
    const s = new ConfigReader().read();
    assert.strictEqual(s.model.provider, 'agent');
    assert.deepStrictEqual(s.agent, { preset: 'aider', command: 'my-agent --yes', upstream: 'http://127.0.0.1:11434/v1', requestsPerAttempt: 3, timeoutS: 45 });
  });

  const badAgent: [string, unknown, string][] = [
    ['agent.preset', 'cursor', 'The setting greenloop.agent.preset must be one of qwen, codex, opencode, aider, claude (got "cursor").'],
    ['agent.requestsPerAttempt', 0, 'The setting greenloop.agent.requestsPerAttempt must be a whole number of at least 1 (got 0).'],
    ['agent.requestsPerAttempt', 2.5, 'The setting greenloop.agent.requestsPerAttempt must be a whole number of at least 1 (got 2.5).'],
    ['agent.timeoutSeconds', 0, 'The setting greenloop.agent.timeoutSeconds must be a number of seconds, at least 1 (got 0).'],
    ['agent.timeoutSeconds', '600', 'The setting greenloop.agent.timeoutSeconds must be a number (got "600").'],
    ['agent.command', 42, 'The setting greenloop.agent.command must be a string (got 42).'],
    ['agent.upstream', 'localhost:11434', 'The setting greenloop.agent.upstream must be an http(s) URL such as http://127.0.0.1:11434/v1, or empty to use the agent\'s OPENAI_BASE_URL (got "localhost:11434").'],
  ];
  for (const [key, value, sentence] of badAgent) {
    it(`refuses greenloop.${key} = ${JSON.stringify(value)} in one sentence`, () => {
      fake.settings.set('greenloop.model.provider', 'agent');
      fake.settings.set(`greenloop.${key}`, value);
      assert.throws(() => new ConfigReader().read(), (err: Error) => {
        assert.ok(err instanceof SettingsError);
        assert.strictEqual(err.message, `${sentence} Fix it in Settings (search "greenloop") and run again.`);
        return true;
      });
    });
  }

  it('needs a base URL and a model name for an OpenAI-compatible endpoint', () => {
    fake.settings.set('greenloop.model.provider', 'openai-compatible');
    assert.throws(() => new ConfigReader().read(), /greenloop\.model\.baseUrl must be an http\(s\) URL/);
    fake.settings.set('greenloop.model.baseUrl', 'http://localhost:11434/v1');
    assert.throws(() => new ConfigReader().read(), /greenloop\.model\.name must name the model/);
  });

  it('gives an agent CLI the agent token budget unless the person set one (it resends its conversation every request)', () => {
    fake.settings.set('greenloop.model.provider', 'agent');
    assert.strictEqual(new ConfigReader().read().loop.maxTokens, DEFAULT_AGENT_SETTINGS.maxTokens);
    fake.settings.set('greenloop.maxTokens', 50_000);
    assert.strictEqual(new ConfigReader().read().loop.maxTokens, 50_000);
  });

  it('hands each run its own copy, so a later change does not reach a running loop', () => {
    fake.settings.set('greenloop.protectedGlobs', ['a/**']);
    const reader = new ConfigReader();
    const first = reader.read();
    fake.settings.set('greenloop.maxIterations', 2);
    first.loop.protectedGlobs.push('mutated');
    const second = reader.read();
    assert.strictEqual(first.loop.maxIterations, 8);
    assert.strictEqual(second.loop.maxIterations, 2);
    assert.deepStrictEqual(second.loop.protectedGlobs, ['a/**']);
  });

  it('tells listeners only about changes to greenloop settings', () => {
    const reader = new ConfigReader();
    let fired = 0;
    reader.onDidChange(() => fired++);
    fake.configListeners.fire({ affectsConfiguration: (s) => s === 'editor' });
    fake.configListeners.fire({ affectsConfiguration: (s) => s === 'greenloop' });
    assert.strictEqual(fired, 1);
    reader.dispose();
    fake.configListeners.fire({ affectsConfiguration: (s) => s === 'greenloop' });
    assert.strictEqual(fired, 1);
  });
});

// The only reader of Greenloop's settings. Each run gets its own copy, read at start, so changing a setting
// mid-run never changes the running loop; the next run picks it up.
import * as vscode from 'vscode';
import type { AutofixMode, LoopConfig, OnGiveUp, TscMode, VerifyScope } from '../shared/config';
import { AUTOFIX_MODES, DEFAULT_AGENT_SETTINGS, validateLoopConfig, VERIFY_SCOPES } from '../shared/config';
import { DEFAULT_LOOP_CONFIG } from '../session/loopDefaults';
import type { AgentSettings } from '../shared/config';
import { AGENT_PRESETS, type AgentPresetName } from '../actors/agentPresets';
import { scriptsNamedBy } from '../shared/checkerConfigs';

export type ModelProvider = 'vscode-lm' | 'openai-compatible' | 'agent';

/** An agent CLI as the model (greenloop.model.provider "agent"): which one, and how each attempt is bounded. */
export interface AgentCliSettings extends Omit<AgentSettings, 'maxTokens'> {
  preset: AgentPresetName;
  /** Overrides the preset's command; empty: the preset's. */
  command: string;
  /** The agent's real model URL; empty: its OPENAI_BASE_URL-style variable in the environment. */
  upstream: string;
}

export interface ModelSettings {
  provider: ModelProvider;
  /** OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1. The key lives in SecretStorage, never here. */
  baseUrl: string;
  name: string;
  /** Longest the model server may go without progress, in seconds, before a request is abandoned (and retried). */
  requestTimeoutS: number;
}

/**
 * Where the diagnostic half of the witness comes from: tsc alone; tsc and greenloop.checks; or the Problems view
 * (the person's own language servers, for any language; tsc and the checks are then not run).
 */
export type DiagnosticsSource = 'tsc' | 'checks' | 'problems';

export interface ExtensionSettings {
  loop: LoopConfig;
  testCommand: string;
  tsc: TscMode;
  /** greenloop.checks as written (strings "CMD[:format]" or { command, format, warnings }), read by the verifier. */
  checks: unknown[];
  diagnosticsSource: DiagnosticsSource;
  model: ModelSettings;
  agent: AgentCliSettings;
}

/** A setting a person wrote that Greenloop cannot use; the message names the setting. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** LoopConfig field → setting name, so the core's sentences can name what the person must fix. */
const SETTING_OF: Record<string, string> = {
  maxIterations: 'maxIterations',
  maxTokens: 'maxTokens',
  maxMinutes: 'maxMinutes',
  verifyTimeoutS: 'verifyTimeoutSeconds',
  patience: 'patience',
  onGiveUp: 'onGiveUp',
  flakyReruns: 'flakyReruns',
  crossRunLimit: 'crossRunLimit',
  maxAnswerBytes: 'maxAnswerBytes',
  verifyScope: 'verify.scope',
  autofix: 'autofix',
  contextTokens: 'contextTokens',
  candidates: 'candidates',
  candidatesParallel: 'candidatesParallel',
};

type Getter = (key: string) => unknown;

/** `isSet`: whether the person set a key themselves (not just the manifest's default); without it, a defined value is. */
export function settingsFrom(get: Getter, isSet?: (key: string) => boolean): ExtensionSettings {
  const fix = ' Fix it in Settings (search "greenloop") and run again.';
  const num = (key: string, fallback: number): number => {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number') throw new SettingsError(`The setting greenloop.${key} must be a number (got ${JSON.stringify(v)}).${fix}`);
    return v;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') throw new SettingsError(`The setting greenloop.${key} must be true or false (got ${JSON.stringify(v)}).${fix}`);
    return v;
  };
  const str = (key: string, fallback: string): string => {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') throw new SettingsError(`The setting greenloop.${key} must be a string (got ${JSON.stringify(v)}).${fix}`);
    return v.trim();
  };
  const globs = (key: string, fallback: string[]): string[] => {
    const v = get(key);
    if (v === undefined || v === null) return [...fallback];
    if (!Array.isArray(v) || v.some((g) => typeof g !== 'string' || !g.trim())) {
      throw new SettingsError(`The setting greenloop.${key} must be a list of non-empty glob strings (got ${JSON.stringify(v)}).${fix}`);
    }
    return v.map((g: string) => g.trim());
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
    const v = str(key, fallback);
    if (!(allowed as readonly string[]).includes(v)) {
      throw new SettingsError(`The setting greenloop.${key} must be one of ${allowed.join(', ')} (got ${JSON.stringify(v)}).${fix}`);
    }
    return v as T;
  };

  const loop: LoopConfig = {
    maxIterations: num('maxIterations', DEFAULT_LOOP_CONFIG.maxIterations),
    maxTokens: num('maxTokens', DEFAULT_LOOP_CONFIG.maxTokens),
    maxMinutes: num('maxMinutes', DEFAULT_LOOP_CONFIG.maxMinutes),
    verifyTimeoutS: num('verifyTimeoutSeconds', DEFAULT_LOOP_CONFIG.verifyTimeoutS),
    patience: num('patience', DEFAULT_LOOP_CONFIG.patience),
    onGiveUp: oneOf<OnGiveUp>('onGiveUp', ['keep-best', 'restore-baseline', 'keep-last'], DEFAULT_LOOP_CONFIG.onGiveUp),
    protectedGlobs: globs('protectedGlobs', DEFAULT_LOOP_CONFIG.protectedGlobs),
    allowTestEdits: bool('allowTestEdits', DEFAULT_LOOP_CONFIG.allowTestEdits),
    snapshotExcludes: globs('snapshotExcludes', DEFAULT_LOOP_CONFIG.snapshotExcludes),
    flakyReruns: num('flakyReruns', DEFAULT_LOOP_CONFIG.flakyReruns),
    crossRunLimit: num('crossRunLimit', DEFAULT_LOOP_CONFIG.crossRunLimit),
    maxAnswerBytes: num('maxAnswerBytes', DEFAULT_LOOP_CONFIG.maxAnswerBytes),
    // Written only when set, so a run's saved settings read as they always did.
    ...(get('contextTokens') !== undefined && get('contextTokens') !== null ? { contextTokens: num('contextTokens', 6000) } : {}),
    ...(num('candidates', 1) > 1 ? { candidates: num('candidates', 1) } : {}),
    ...(bool('candidatesParallel', false) ? { candidatesParallel: true } : {}),
    ...(bool('allowSuppressions', false) ? { allowSuppressions: true } : {}),
    // Written only when it differs from the default, so a run's saved settings read as they always did.
    ...(oneOf<VerifyScope>('verify.scope', VERIFY_SCOPES, 'failing-first') === 'full' ? { verifyScope: 'full' as const } : {}),
    ...(oneOf<AutofixMode>('autofix', AUTOFIX_MODES, 'auto') === 'off' ? { autofix: 'off' as const } : {}),
  };
  const checks = get('checks') ?? [];
  if (!Array.isArray(checks) || checks.some((c) => !(typeof c === 'string' && c.trim()) && !(c && typeof c === 'object' && !Array.isArray(c)))) {
    throw new SettingsError(`The setting greenloop.checks must be a list of check commands ("npx eslint --format json src", "mypy app:mypy") or { "command": …, "format": … } objects (got ${JSON.stringify(checks)}).${fix}`);
  }
  const diagnosticsSource = oneOf<DiagnosticsSource>('diagnostics.source', ['tsc', 'checks', 'problems'], 'checks');
  const checkCommands = checks.map((c) => (typeof c === 'string' ? c : String((c as { command?: unknown }).command ?? '')));
  // `npm run lint` as a check: the lint script's definition is protected like the test script's.
  if (diagnosticsSource === 'checks' && checkCommands.length) loop.checkScripts = scriptsNamedBy(checkCommands);
  const problems = validateLoopConfig(loop);
  if (problems.length) {
    const first = problems[0];
    const field = /^(\w+)/.exec(first)?.[1] ?? '';
    throw new SettingsError(`The setting greenloop.${SETTING_OF[field] ?? field}${first.slice(field.length)}${fix}`);
  }

  const model: ModelSettings = {
    provider: oneOf<ModelProvider>('model.provider', ['vscode-lm', 'openai-compatible', 'agent'], 'vscode-lm'),
    baseUrl: str('model.baseUrl', ''),
    name: str('model.name', ''),
    requestTimeoutS: num('model.requestTimeoutSeconds', 120),
  };
  if (!(model.requestTimeoutS > 0)) throw new SettingsError(`The setting greenloop.model.requestTimeoutSeconds must be a positive number of seconds (got ${model.requestTimeoutS}).${fix}`);
  if (model.provider === 'openai-compatible') {
    if (!/^https?:\/\/[^\s/]+/.test(model.baseUrl)) {
      throw new SettingsError(`The setting greenloop.model.baseUrl must be an http(s) URL such as http://127.0.0.1:11434/v1 when greenloop.model.provider is "openai-compatible" (got ${JSON.stringify(model.baseUrl)}).${fix}`);
    }
    if (!model.name) throw new SettingsError(`The setting greenloop.model.name must name the model (e.g. gpt-4o-mini) when greenloop.model.provider is "openai-compatible".${fix}`);
  }
  // An agent resends its whole conversation with every request: the model's default token budget would not last one attempt.
  if (model.provider === 'agent' && !(isSet ? isSet('maxTokens') : get('maxTokens') !== undefined)) loop.maxTokens = DEFAULT_AGENT_SETTINGS.maxTokens;
  const agent: AgentCliSettings = {
    preset: oneOf<AgentPresetName>('agent.preset', Object.keys(AGENT_PRESETS) as AgentPresetName[], 'qwen'),
    command: str('agent.command', ''),
    upstream: str('agent.upstream', ''),
    requestsPerAttempt: num('agent.requestsPerAttempt', DEFAULT_AGENT_SETTINGS.requestsPerAttempt),
    timeoutS: num('agent.timeoutSeconds', DEFAULT_AGENT_SETTINGS.timeoutS),
  };
  if (!Number.isInteger(agent.requestsPerAttempt) || agent.requestsPerAttempt < 1) {
    throw new SettingsError(`The setting greenloop.agent.requestsPerAttempt must be a whole number of at least 1 (got ${agent.requestsPerAttempt}).${fix}`);
  }
  if (!(agent.timeoutS >= 1)) throw new SettingsError(`The setting greenloop.agent.timeoutSeconds must be a number of seconds, at least 1 (got ${agent.timeoutS}).${fix}`);
  if (model.provider === 'agent' && agent.upstream && !/^https?:\/\/[^\s/]+/.test(agent.upstream)) {
    throw new SettingsError(`The setting greenloop.agent.upstream must be an http(s) URL such as http://127.0.0.1:11434/v1, or empty to use the agent's OPENAI_BASE_URL (got ${JSON.stringify(agent.upstream)}).${fix}`);
  }
  return {
    loop,
    testCommand: str('testCommand', ''),
    tsc: oneOf<TscMode>('tsc', ['auto', 'on', 'off'], 'auto'),
    checks: diagnosticsSource === 'checks' ? checks : [],
    diagnosticsSource,
    model,
    agent,
  };
}

/** Reads settings per folder (resource scope) and tells listeners when any greenloop.* setting changed. */
export class ConfigReader implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly sub: vscode.Disposable;

  constructor() {
    this.sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('greenloop')) this.emitter.fire();
    });
  }

  /** A fresh, validated copy; throws SettingsError with one sentence naming the bad setting. */
  read(folder?: vscode.Uri): ExtensionSettings {
    const cfg = vscode.workspace.getConfiguration('greenloop', folder);
    const isSet = (key: string) => {
      const i = cfg.inspect(key);
      return i !== undefined && [i.globalValue, i.workspaceValue, i.workspaceFolderValue].some((v) => v !== undefined);
    };
    return structuredClone(settingsFrom((key) => cfg.get(key), isSet));
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}

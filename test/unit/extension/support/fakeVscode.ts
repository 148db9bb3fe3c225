// A small stand-in for the parts of the `vscode` module the host adapters use, so they run in plain mocha.
// Installing it makes `require('vscode')` resolve here; tests script the answers a person or VS Code would give.
import Module = require('module');
import * as path from 'path';

type Listener<T> = (e: T) => unknown;

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  /** Listeners still subscribed: what a leak leaves behind. */
  get listenerCount(): number {
    return this.listeners.size;
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class RelativePattern {
  constructor(readonly base: Uri, readonly pattern: string) {}
}

/** A file system watcher as VS Code makes one: disposing it ends its events; `fake.watchers` holds the live ones. */
export class FakeFileSystemWatcher {
  private readonly changed = new EventEmitter<Uri>();
  private readonly created = new EventEmitter<Uri>();
  private readonly deleted = new EventEmitter<Uri>();
  readonly onDidChange = this.changed.event;
  readonly onDidCreate = this.created.event;
  readonly onDidDelete = this.deleted.event;
  constructor(readonly pattern: RelativePattern) {}
  /** Listeners on any of its events. */
  get listenerCount(): number {
    return this.changed.listenerCount + this.created.listenerCount + this.deleted.listenerCount;
  }
  fireChange(file: string): void {
    this.changed.fire(Uri.file(file));
  }
  fireCreate(file: string): void {
    this.created.fire(Uri.file(file));
  }
  dispose(): void {
    for (const e of [this.changed, this.created, this.deleted]) e.dispose();
    fake.watchers.delete(this);
  }
}

export class Uri {
  private constructor(readonly scheme: string, readonly fsPath: string) {}
  static file(p: string): Uri {
    return new Uri('file', path.resolve(p));
  }
  static parse(s: string): Uri {
    return new Uri('file', s.replace(/^file:\/\//, ''));
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return `file://${this.fsPath}`;
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class MarkdownString {
  constructor(public value = '') {}
  appendMarkdown(s: string): this {
    this.value += s;
    return this;
  }
}

export enum StatusBarAlignment { Left = 1, Right = 2 }

export enum TreeItemCollapsibleState { None = 0, Collapsed = 1, Expanded = 2 }

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  constructor(readonly id: string, readonly color?: ThemeColor) {}
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  contextValue?: string;
  command?: unknown;
  resourceUri?: Uri;
  iconPath?: unknown;
  constructor(readonly label: string, readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None) {}
}

export class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class LanguageModelError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
    this.name = 'LanguageModelError';
  }
  static NoPermissions(message = 'no permission'): LanguageModelError {
    return new LanguageModelError(message, 'NoPermissions');
  }
  static Blocked(message = 'blocked'): LanguageModelError {
    return new LanguageModelError(message, 'Blocked');
  }
  static NotFound(message = 'not found'): LanguageModelError {
    return new LanguageModelError(message, 'NotFound');
  }
}

export class LanguageModelChatMessage {
  constructor(readonly role: number, readonly content: string) {}
  static User(content: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(1, content);
  }
  static Assistant(content: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(2, content);
  }
}

export class LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelToolResult {
  constructor(public content: unknown[]) {}
}

export class McpStdioServerDefinition {
  cwd?: Uri;
  constructor(readonly label: string, public command: string, public args: string[] = [], public env: Record<string, string | number | null> = {}, public version?: string) {}
}

/** A tool as registered with lm.registerTool, kept by name so a test can prepare and invoke it as VS Code would. */
export interface FakeTool {
  invoke(options: { input: unknown; toolInvocationToken: undefined }, token: CancellationTokenSource['token']): unknown;
  prepareInvocation?(options: { input: unknown }, token: CancellationTokenSource['token']): unknown;
}

export interface FakeMcpProvider {
  provideMcpServerDefinitions(token: CancellationTokenSource['token']): unknown;
  resolveMcpServerDefinition?(server: unknown, token: CancellationTokenSource['token']): unknown;
}

export class TaskGroup {
  static readonly Test = new TaskGroup('test', 'Test');
  static readonly Build = new TaskGroup('build', 'Build');
  isDefault?: boolean;
  constructor(readonly id: string, readonly label: string) {}
}

export enum TaskScope { Global = 1, Workspace = 2 }

export class ShellExecution {
  commandLine?: string;
  command?: string;
  args?: string[];
  constructor(commandOrLine: string, argsOrOptions?: string[] | ShellExecutionOptions, options?: ShellExecutionOptions) {
    if (Array.isArray(argsOrOptions)) {
      this.command = commandOrLine;
      this.args = argsOrOptions;
      this.options = options;
    } else {
      this.commandLine = commandOrLine;
      this.options = argsOrOptions;
    }
  }
  options?: ShellExecutionOptions;
}
interface ShellExecutionOptions { cwd?: string; env?: Record<string, string>; executable?: string; shellArgs?: string[] }

export class ProcessExecution {
  constructor(readonly process: string, readonly args: string[] = [], readonly options?: { cwd?: string; env?: Record<string, string> }) {}
}

export class CustomExecution {
  constructor(readonly callback: unknown) {}
}

export interface FakeTask {
  name: string;
  source: string;
  group?: TaskGroup;
  scope?: unknown;
  execution?: unknown;
  definition: { type: string };
}

export function testTask(name: string, execution: unknown, opts: { isDefault?: boolean; scope?: unknown; source?: string } = {}): FakeTask {
  const group = new TaskGroup('test', 'Test');
  if (opts.isDefault) group.isDefault = true;
  return { name, source: opts.source ?? 'Workspace', group, scope: opts.scope ?? TaskScope.Workspace, execution, definition: { type: 'shell' } };
}

export class FakeMemento {
  private readonly data = new Map<string, unknown>();
  get<T>(key: string, fallback?: T): T | undefined {
    return this.data.has(key) ? (this.data.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, value);
    return Promise.resolve();
  }
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
}

export class FakeStatusBarItem {
  text = '';
  tooltip: unknown;
  name: string | undefined;
  command: unknown;
  backgroundColor: ThemeColor | undefined;
  accessibilityInformation: { label: string } | undefined;
  visible = false;
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.visible = false;
  }
}

export enum DiagnosticSeverity { Error = 0, Warning = 1, Information = 2, Hint = 3 }

/** One diagnostic as a language server publishes it (the parts Greenloop reads). */
export interface FakeDiagnostic {
  range: { start: { line: number; character: number } };
  message: string;
  severity: DiagnosticSeverity;
  source?: string;
  code?: string | number | { value: string | number };
}

/** What the fake "person" and "VS Code" answer; tests set these and read the recorded calls. */
export const fake = {
  /** The Problems view: file path → its diagnostics. `publish` sets a file's and fires onDidChangeDiagnostics. */
  diagnostics: new Map<string, FakeDiagnostic[]>(),
  diagnosticEvents: new EventEmitter<{ uris: Uri[] }>(),
  publish(file: string, list: FakeDiagnostic[]): void {
    this.diagnostics.set(path.resolve(file), list);
    this.diagnosticEvents.fire({ uris: [Uri.file(file)] });
  },
  /** File system watchers made and not disposed. */
  watchers: new Set<FakeFileSystemWatcher>(),
  settings: new Map<string, unknown>(),
  tasks: [] as FakeTask[],
  /** Answers to showQuickPick in order; a function picks from the items. */
  quickPicks: [] as ((items: { label: string }[]) => unknown)[],
  quickPickCalls: [] as { label: string; description?: string }[][],
  messages: [] as { level: string; text: string }[],
  statusItems: [] as FakeStatusBarItem[],
  chatModels: [] as unknown[],
  configListeners: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  workspaceFolders: [] as { uri: Uri; name: string; index: number }[],
  tools: new Map<string, FakeTool>(),
  mcpProviders: new Map<string, FakeMcpProvider>(),
  reset(): void {
    this.diagnostics.clear();
    this.diagnosticEvents = new EventEmitter();
    this.watchers.clear();
    this.tools.clear();
    this.mcpProviders.clear();
    vscodeFake.workspace.isTrusted = true;
    this.settings.clear();
    this.tasks = [];
    this.quickPicks = [];
    this.quickPickCalls = [];
    this.messages = [];
    this.statusItems = [];
    this.chatModels = [];
    this.workspaceFolders = [];
    this.configListeners = new EventEmitter();
  },
};

function configuration(section: string) {
  return {
    get<T>(key: string, fallback?: T): T | undefined {
      const full = `${section}.${key}`;
      return fake.settings.has(full) ? (fake.settings.get(full) as T) : fallback;
    },
    /** What a person set, at the workspace level here (VS Code's inspect without the manifest defaults). */
    inspect<T>(key: string): { key: string; workspaceValue?: T } | undefined {
      const full = `${section}.${key}`;
      return { key: full, workspaceValue: fake.settings.has(full) ? (fake.settings.get(full) as T) : undefined };
    },
  };
}

export const vscodeFake = {
  Disposable, EventEmitter, Uri, RelativePattern, ThemeColor, MarkdownString, StatusBarAlignment, TreeItemCollapsibleState, ThemeIcon, TreeItem, CancellationError, CancellationTokenSource,
  LanguageModelError, LanguageModelChatMessage, LanguageModelTextPart, LanguageModelToolResult, McpStdioServerDefinition, TaskGroup, TaskScope, ShellExecution, ProcessExecution, CustomExecution,
  DiagnosticSeverity,
  languages: {
    getDiagnostics: (): [Uri, FakeDiagnostic[]][] => [...fake.diagnostics].map(([file, list]) => [Uri.file(file), list]),
    onDidChangeDiagnostics: (l: Listener<{ uris: Uri[] }>) => fake.diagnosticEvents.event(l),
  },
  workspace: {
    getConfiguration: (section: string) => configuration(section),
    onDidChangeConfiguration: (l: Listener<{ affectsConfiguration(section: string): boolean }>) => fake.configListeners.event(l),
    get workspaceFolders() {
      return fake.workspaceFolders;
    },
    isTrusted: true,
    /** Open documents: none, so "save before the run" has nothing to ask. */
    textDocuments: [] as unknown[],
    getWorkspaceFolder: (uri: Uri) => fake.workspaceFolders.find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + path.sep)),
    onDidChangeWorkspaceFolders: () => new Disposable(),
    createFileSystemWatcher: (pattern: RelativePattern) => {
      const w = new FakeFileSystemWatcher(pattern);
      fake.watchers.add(w);
      return w;
    },
  },
  window: {
    createStatusBarItem: () => {
      const item = new FakeStatusBarItem();
      fake.statusItems.push(item);
      return item;
    },
    showQuickPick: async (items: { label: string; description?: string }[]) => {
      fake.quickPickCalls.push(items);
      const next = fake.quickPicks.shift();
      return next ? next(items) : undefined;
    },
    showErrorMessage: async (text: string) => {
      fake.messages.push({ level: 'error', text });
      return undefined;
    },
    showWarningMessage: async (text: string) => {
      fake.messages.push({ level: 'warning', text });
      return undefined;
    },
    showInformationMessage: async (text: string) => {
      fake.messages.push({ level: 'info', text });
      return undefined;
    },
  },
  tasks: {
    fetchTasks: async () => fake.tasks,
  },
  lm: {
    selectChatModels: async () => fake.chatModels,
    registerTool: (name: string, tool: FakeTool) => {
      fake.tools.set(name, tool);
      return new Disposable(() => fake.tools.delete(name));
    },
    registerMcpServerDefinitionProvider: (id: string, provider: FakeMcpProvider) => {
      fake.mcpProviders.set(id, provider);
      return new Disposable(() => fake.mcpProviders.delete(id));
    },
  },
  env: { language: 'en', sessionId: 'fake-session' },
};

let installed = false;

/** Makes `require('vscode')` return the fake; idempotent. Call before importing any src/extension module. */
export function installFakeVscode(): typeof fake {
  if (installed) return fake;
  installed = true;
  const id = require.resolve(__filename);
  const M = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = M._resolveFilename;
  M._resolveFilename = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return `${id}#vscode`;
    return original.call(this, request, ...rest);
  };
  const cached = new Module(`${id}#vscode`);
  cached.exports = vscodeFake;
  cached.loaded = true;
  require.cache[`${id}#vscode`] = cached;
  return fake;
}

installFakeVscode();

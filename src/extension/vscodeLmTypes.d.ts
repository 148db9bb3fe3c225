// The parts of VS Code's API the agent tools use that @types/vscode 1.90 lacks: language model tools (stable in 1.95)
// and MCP server definition providers (stable in 1.101), as vscode.d.ts of 1.101 declares them.
// DELETE THIS FILE when @types/vscode is ^1.101.0 in node_modules: the real declarations then clash with these.
export {};

declare module 'vscode' {
  export class LanguageModelTextPart {
    value: string;
    constructor(value: string);
  }

  export class LanguageModelPromptTsxPart {
    value: unknown;
    constructor(value: unknown);
  }

  export class LanguageModelToolResult {
    content: Array<LanguageModelTextPart | LanguageModelPromptTsxPart | unknown>;
    constructor(content: Array<LanguageModelTextPart | LanguageModelPromptTsxPart>);
  }

  export type ChatParticipantToolToken = never;

  export interface LanguageModelToolInvocationOptions<T> {
    readonly toolInvocationToken: ChatParticipantToolToken | undefined;
    readonly input: T;
    readonly tokenizationOptions?: { tokenBudget: number; countTokens(text: string, token?: CancellationToken): Thenable<number> };
  }

  export interface LanguageModelToolInvocationPrepareOptions<T> {
    input: T;
  }

  export interface LanguageModelToolConfirmationMessages {
    title: string;
    message: string | MarkdownString;
  }

  export interface PreparedToolInvocation {
    invocationMessage?: string | MarkdownString;
    confirmationMessages?: LanguageModelToolConfirmationMessages;
  }

  export interface LanguageModelTool<T> {
    invoke(options: LanguageModelToolInvocationOptions<T>, token: CancellationToken): ProviderResult<LanguageModelToolResult>;
    prepareInvocation?(options: LanguageModelToolInvocationPrepareOptions<T>, token: CancellationToken): ProviderResult<PreparedToolInvocation>;
  }

  export interface LanguageModelToolInformation {
    readonly name: string;
    readonly description: string;
    readonly inputSchema: object | undefined;
    readonly tags: readonly string[];
  }

  export class McpStdioServerDefinition {
    readonly label: string;
    cwd?: Uri;
    command: string;
    args: string[];
    env: Record<string, string | number | null>;
    version?: string;
    constructor(label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string);
  }

  export class McpHttpServerDefinition {
    readonly label: string;
    uri: Uri;
    headers: Record<string, string>;
    version?: string;
    constructor(label: string, uri: Uri, headers?: Record<string, string>, version?: string);
  }

  export type McpServerDefinition = McpStdioServerDefinition | McpHttpServerDefinition;

  export interface McpServerDefinitionProvider<T extends McpServerDefinition = McpServerDefinition> {
    readonly onDidChangeMcpServerDefinitions?: Event<void>;
    provideMcpServerDefinitions(token: CancellationToken): ProviderResult<T[]>;
    resolveMcpServerDefinition?(server: T, token: CancellationToken): ProviderResult<T>;
  }

  export namespace lm {
    export function registerTool<T>(name: string, tool: LanguageModelTool<T>): Disposable;
    export const tools: readonly LanguageModelToolInformation[];
    export function invokeTool(name: string, options: LanguageModelToolInvocationOptions<object>, token?: CancellationToken): Thenable<LanguageModelToolResult>;
    export function registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProvider): Disposable;
  }
}

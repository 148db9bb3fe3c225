// Offers `greenloop mcp` to VS Code's MCP client, one server per open folder, so any agent that speaks MCP in this
// window finds Greenloop's verify, rollback, status and fix_until_green tools without a configuration file.
import * as path from 'path';
import * as vscode from 'vscode';

export const MCP_PROVIDER_ID = 'greenloop.mcp';

export interface McpServerPlan {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/**
 * The CLI runs on the Node.js VS Code carries: its executable is Electron, which runs as plain Node with
 * ELECTRON_RUN_AS_NODE=1 (and ignores it when it already is Node, as in a remote or code-server extension host).
 */
export function mcpServerPlans(extensionPath: string, folders: readonly { name: string; uri: { fsPath: string } }[], execPath = process.execPath): McpServerPlan[] {
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  return folders.map((f) => ({
    label: folders.length === 1 ? 'Greenloop' : `Greenloop: ${f.name}`,
    command: execPath,
    args: [cli, 'mcp', '--cwd', f.uri.fsPath],
    env: { ELECTRON_RUN_AS_NODE: '1' },
    cwd: f.uri.fsPath,
  }));
}

export function registerMcpServers(context: vscode.ExtensionContext): vscode.Disposable[] {
  // MCP server definition providers came in VS Code 1.101; an older one activates the extension without them.
  if (!('registerMcpServerDefinitionProvider' in vscode.lm)) return [];
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => mcpServerPlans(context.extensionPath, vscode.workspace.workspaceFolders ?? []).map((p) => {
      const def = new vscode.McpStdioServerDefinition(p.label, p.command, p.args, p.env, String(context.extension?.packageJSON?.version ?? ''));
      def.cwd = vscode.Uri.file(p.cwd);
      return def;
    }),
    // Serving runs the workspace's tests: not in Restricted Mode.
    resolveMcpServerDefinition: (server) => {
      if (!vscode.workspace.isTrusted) throw new Error('Greenloop runs your tests, which runs code from this workspace, so its MCP server needs a trusted workspace; trust it with "Workspaces: Manage Workspace Trust".');
      return server;
    },
  };
  return [
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
  ];
}

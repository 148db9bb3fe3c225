// Activation builds the services and registers them; nothing runs until a command or the view asks. (Greenloop
// activates when VS Code has started, so that the Get Started walkthrough can open once after install.)
import * as vscode from 'vscode';
import { registerLmTools } from './agentTools/lmTools';
import { registerMcpServers } from './agentTools/mcpServers';
import { registerCommands } from './commands/registerCommands';
import { ConfigReader } from './config';
import { RunService } from './run/runService';
import { StatusBar } from './statusBar/statusBar';
import { TestTerminalHost } from './testing/testTerminal';
import { TestingView } from './testing/testingView';
import { registerViews } from './views/registerViews';
import { openWalkthroughOnce } from './walkthrough';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Greenloop', { log: true });
  const config = new ConfigReader();
  const terminals = new TestTerminalHost();
  const runs = new RunService(context, config, log, terminals);
  context.subscriptions.push(log, config, terminals, runs, new StatusBar(runs), new TestingView(runs));
  registerCommands({ context, runs, log, terminals });
  registerViews(context, runs);
  context.subscriptions.push(
    ...registerLmTools({ context, config, runs, sink: () => terminals.acquire(), log }),
    ...registerMcpServers(context),
  );
  void openWalkthroughOnce(context, log).catch((err: unknown) => log.warn(`The Get Started walkthrough did not open: ${String(err)}`));
}

export function deactivate(): void {
  // Disposing the run service (via subscriptions) stops an active run and restores per greenloop.onGiveUp.
}

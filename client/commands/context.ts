// What every command needs: the session, the views, the local server and the log; and the two
// ways a command ends badly — nothing to talk to, or the server's refusal shown as it said it.
import * as vscode from 'vscode';
import type { ApiClient } from '../../shared/apiClient/client.ts';
import type { Session } from '../auth/session.ts';
import type { DetailPanels } from '../details/panels.ts';
import { notificationText } from './notificationText.ts';
import type { LocalServerManager } from '../localServer/manager.ts';
import type { TreeNode } from '../tree/nodes.ts';
import { messageOf, type NodeTreeProvider } from '../tree/treeProvider.ts';

export interface CommandContext {
  extension: vscode.ExtensionContext;
  session: Session;
  localServer: LocalServerManager;
  flows: NodeTreeProvider;
  environments: NodeTreeProvider;
  flowsView: vscode.TreeView<TreeNode>;
  environmentsView: vscode.TreeView<TreeNode>;
  log: vscode.LogOutputChannel;
  details: DetailPanels;
}

/**
 * What a command was started with, whatever started it: a tree node (its `ref`), an explorer file
 * (a Uri), or an object from a keybinding or a script (which also lets tests skip the prompts).
 */
export interface CommandArgs {
  flow?: string;
  trail?: string;
  environment?: string;
  /** A file path or URI: the template, the payload, the report. */
  file?: string;
  /** A file path to attach, or false for no attachment. */
  attachment?: string | false;
  /** The new flow's or trail's name, or the search value. */
  name?: string;
  description?: string;
  /** The htmlUrl to open. */
  url?: string;
}

export function argsOf(arg: unknown): CommandArgs {
  if (arg instanceof vscode.Uri) return { file: arg.toString() };
  if (typeof arg !== 'object' || arg === null) return {};
  if ('ref' in arg && 'kind' in arg) {
    const node = arg as TreeNode;
    return { flow: node.ref.flow, trail: node.ref.trail, environment: node.ref.environment, url: node.htmlUrl };
  }
  return arg;
}

/** A path or URI string as a Uri. */
export function uriOf(file: string): vscode.Uri {
  return /^[a-z][a-z0-9+.-]+:/i.test(file) && !/^[a-z]:[\\/]/i.test(file)
    ? vscode.Uri.parse(file)
    : vscode.Uri.file(file);
}

/** The API client, or undefined after telling the user how to get one. */
export async function apiOrExplain(context: CommandContext): Promise<ApiClient | undefined> {
  const api = context.session.api;
  if (api) return api;
  const connection = context.session.connection;
  const reason = connection.kind === 'unconfigured' ? connection.problem : 'Not signed in.';
  const choice = await vscode.window.showWarningMessage(
    `Compliance Evidence: ${reason}`,
    'Start Local Server',
    'Sign In',
    'Open Settings',
  );
  if (choice === 'Start Local Server') await vscode.commands.executeCommand('complianceEvidence.localServer.start');
  else if (choice === 'Sign In') await vscode.commands.executeCommand('complianceEvidence.signIn');
  else if (choice === 'Open Settings')
    await vscode.commands.executeCommand('workbench.action.openSettings', 'complianceEvidence');
  return context.session.api;
}

/** Shows what the server said (message and field errors), and logs it. */
export function showFailure(context: CommandContext, what: string, error: unknown): void {
  const message = notificationText(`${what} failed: ${messageOf(error)}`);
  context.log.error(message);
  void vscode.window.showErrorMessage(message);
}

/** Runs long work with a notification progress bar. */
export function withProgress<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: false },
    work,
  );
}

// The editor side of the previews (issue 13): tells the language server which API server to ask
// (URL, org and key, by a custom notification: never on its command line, never logged), and
// shows the lists behind its lenses as quick picks, including the environment picker of a policy
// dry-run. The language server does the asking; this file only moves data and shows it.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  environmentsRequest,
  policyDryRunRequest,
  serverAccessNotification,
  type PreviewList,
} from '../../shared/protocol.ts';
import type { Session } from '../auth/session.ts';

/** A lens's argument comes back from the editor as it was sent: checked before it is shown. */
function isPreviewList(value: unknown): value is PreviewList {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PreviewList).title === 'string' &&
    Array.isArray((value as PreviewList).items)
  );
}

/** Sends the session's server to the language server now and whenever it changes. */
export function shareServerAccess(client: LanguageClient, session: Session): vscode.Disposable {
  const send = async (): Promise<void> => {
    if (!client.isRunning()) return;
    await client.sendNotification(serverAccessNotification, await session.serverAccess());
  };
  void send();
  return vscode.Disposable.from(
    session.onDidChange(() => void send()),
    client.onDidChangeState(() => void send()),
  );
}

/** A lens's list: the trails a template changes, or the artifacts a policy judges. */
export async function showPreviewList(list: unknown): Promise<void> {
  if (!isPreviewList(list)) return;
  const items = list.items.length > 0 ? list.items : [{ label: list.empty }];
  await vscode.window.showQuickPick(items, { title: list.title, matchOnDescription: true, matchOnDetail: true });
}

/** Picks an environment and shows what the policy in the editor would say about its latest snapshot. */
export async function policyDryRun(client: LanguageClient, uri: unknown): Promise<void> {
  const documentUri = typeof uri === 'string' ? uri : vscode.window.activeTextEditor?.document.uri.toString();
  if (documentUri === undefined) return;
  const environments = await client.sendRequest(environmentsRequest);
  if ('problem' in environments) {
    vscode.window.setStatusBarMessage(`Policy dry-run: ${environments.problem}`, 5000);
    return;
  }
  const environment = await vscode.window.showQuickPick(environments.environments, {
    title: 'Dry-run the policy on which environment?',
  });
  if (environment === undefined) return;
  const answer = await client.sendRequest(policyDryRunRequest, { uri: documentUri, environment });
  if ('problem' in answer) {
    vscode.window.setStatusBarMessage(`Policy dry-run: ${answer.problem}`, 5000);
    return;
  }
  await showPreviewList(answer);
}

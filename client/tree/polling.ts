// Optional polling: reloads a visible view every `complianceEvidence.views.pollingInterval` seconds.
import * as vscode from 'vscode';
import type { TreeNode } from './nodes.ts';
import type { NodeTreeProvider } from './treeProvider.ts';

export function startPolling(
  flowsView: vscode.TreeView<TreeNode>,
  environmentsView: vscode.TreeView<TreeNode>,
  flows: NodeTreeProvider,
  environments: NodeTreeProvider,
): vscode.Disposable {
  let timer: ReturnType<typeof setInterval> | undefined;
  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    const seconds = vscode.workspace.getConfiguration('complianceEvidence').get<number>('views.pollingInterval', 0);
    if (!(seconds > 0)) return;
    timer = setInterval(
      () => {
        if (flowsView.visible) flows.refreshAll();
        if (environmentsView.visible) environments.refreshAll();
      },
      Math.max(5, seconds) * 1000,
    );
  };
  schedule();
  const listener = vscode.workspace.onDidChangeConfiguration(
    (event) => event.affectsConfiguration('complianceEvidence.views.pollingInterval') && schedule(),
  );
  return new vscode.Disposable(() => {
    if (timer) clearInterval(timer);
    listener.dispose();
  });
}

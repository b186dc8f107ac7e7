// How a plain TreeNode looks in VS Code: compliance as a coloured ThemeIcon, capabilities as the
// contextValue that menus match.
import * as vscode from 'vscode';
import type { ComplianceState } from '../../shared/apiClient/types.ts';
import type { TreeNode } from './nodes.ts';

const complianceIcons: Record<ComplianceState, vscode.ThemeIcon> = {
  COMPLIANT: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  'NON-COMPLIANT': new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  INCOMPLETE: new vscode.ThemeIcon('circle-large-outline', new vscode.ThemeColor('testing.iconQueued')),
  MISSING: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground')),
};

export function treeItemOf(node: TreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    node.label,
    node.expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = node.id;
  item.description = node.description;
  // Untrusted: never isTrusted or supportHtml; the models escape every value (markdown.ts).
  if (node.tooltip) item.tooltip = new vscode.MarkdownString(node.tooltip);
  if (node.compliance) item.iconPath = complianceIcons[node.compliance];
  else if (node.kind === 'error')
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  else if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
  item.contextValue = node.capabilities.join(' ');
  if (node.kind === 'loadMore')
    item.command = { command: 'complianceEvidence.loadMore', title: 'Load more', arguments: [node] };
  return item;
}

// How a plain TreeNode looks in VS Code: compliance as a coloured ThemeIcon, capabilities as the
// contextValue that menus match.
import * as vscode from 'vscode';
import { SHOWN_STATES, type ShownState } from '../../shared/compliance/vocabulary.ts';
import { STATE_THEME_COLOURS, type TreeNode } from './nodes.ts';

/** Each state's codicon; its colour is the one of its colour token. */
const STATE_ICONS: Record<ShownState, string> = {
  COMPLIANT: 'pass-filled',
  'NON-COMPLIANT': 'error',
  INCOMPLETE: 'circle-large-outline',
  MISSING: 'circle-slash',
  'NO POLICY': 'circle-slash',
  'NOT REPORTED': 'circle-large-outline',
  UNKNOWN: 'question',
};

function complianceIcon(state: ShownState): vscode.ThemeIcon {
  return new vscode.ThemeIcon(
    STATE_ICONS[state],
    new vscode.ThemeColor(STATE_THEME_COLOURS[SHOWN_STATES[state].colour]),
  );
}

export function treeItemOf(node: TreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    node.label,
    node.expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = node.id;
  item.description = node.description;
  // Untrusted: never isTrusted or supportHtml; the models escape every value (markdown.ts).
  if (node.tooltip) item.tooltip = new vscode.MarkdownString(node.tooltip);
  if (node.compliance) item.iconPath = complianceIcon(node.compliance);
  else if (node.kind === 'error')
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  else if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
  item.contextValue = node.capabilities.join(' ');
  if (node.kind === 'loadMore')
    item.command = { command: 'complianceEvidence.loadMore', title: 'Load more', arguments: [node] };
  return item;
}

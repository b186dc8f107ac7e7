// Quick picks for a command's target when it was not started from a tree node.
import * as vscode from 'vscode';
import type { ApiClient } from '../../shared/apiClient/client.ts';

export async function pickFlow(api: ApiClient, placeHolder = 'Flow'): Promise<string | undefined> {
  const flows = await api.listFlows();
  if (flows.length === 0) {
    void vscode.window.showInformationMessage('There are no flows yet: create one from a flow template first.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    flows.map((flow) => ({ label: flow.name, description: flow.description })),
    { placeHolder, ignoreFocusOut: true },
  );
  return picked?.label;
}

export async function pickTrail(api: ApiClient, flow: string): Promise<string | undefined> {
  const page = await api.listTrails(flow, 1, 100);
  if (page.data.length === 0) {
    void vscode.window.showInformationMessage(`Flow '${flow}' has no trails yet: begin one first.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    page.data.map((trail) => ({ label: trail.name, description: trail.compliance_state })),
    { placeHolder: `Trail of ${flow}`, ignoreFocusOut: true },
  );
  return picked?.label;
}

/** A file chosen in the open dialog, or undefined. */
export async function pickFile(title: string, filters?: Record<string, string[]>): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({ title, canSelectMany: false, filters, openLabel: 'Select' });
  return picked?.[0];
}

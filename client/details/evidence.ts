// Open and Save of an attestation's evidence file, asked for from the attestation view. Open keeps
// a copy in the extension's own storage and opens it in an editor; Save writes where the user picks.
import * as vscode from 'vscode';
import type { ApiClient } from '../../shared/apiClient/client.ts';
import { safeFileName } from './fileNames.ts';

interface EvidenceRef {
  flow: string;
  trail: string;
  attestationId: string;
}

/** Downloads the evidence into the extension's storage and opens it; returns the file. */
export async function openEvidence(
  extension: vscode.ExtensionContext,
  api: ApiClient,
  ref: EvidenceRef,
): Promise<vscode.Uri> {
  const { bytes, fileName } = await api.evidence(ref.flow, ref.trail, ref.attestationId);
  const folder = vscode.Uri.joinPath(
    extension.globalStorageUri,
    'evidence',
    safeFileName(ref.attestationId, 'attestation'),
  );
  await vscode.workspace.fs.createDirectory(folder);
  const file = vscode.Uri.joinPath(folder, safeFileName(fileName));
  await vscode.workspace.fs.writeFile(file, bytes);
  await vscode.commands.executeCommand('vscode.open', file, { preview: true });
  return file;
}

/** Asks where to save the evidence and writes it there; returns the file, or undefined when cancelled. */
export async function saveEvidence(api: ApiClient, ref: EvidenceRef): Promise<vscode.Uri | undefined> {
  const { bytes, fileName } = await api.evidence(ref.flow, ref.trail, ref.attestationId);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = safeFileName(fileName);
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    saveLabel: 'Save Evidence',
    title: `Save evidence ${name}`,
  });
  if (target === undefined) return undefined;
  await vscode.workspace.fs.writeFile(target, bytes);
  void vscode.window.showInformationMessage(`Evidence saved to ${target.fsPath}`);
  return target;
}

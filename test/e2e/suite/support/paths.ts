// Where the suite finds the repository and writes its output, under either runner.
import * as path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'compliance-evidence.compliance-evidence';

/** The repository: the extension under development. */
export function repoRoot(): string {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this VS Code`);
  return extension.extensionPath;
}

/** test-output/e2e, or where the code-server runner said. */
export function outputDir(): string {
  return process.env.E2E_OUTPUT_DIR ?? path.join(repoRoot(), 'test-output', 'e2e');
}

/** The folder the window has open: the tests write their files there. */
export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the test window has no folder open');
  return folder.uri.fsPath;
}

// Audit logs open as read-only documents (`<env> audit log.csv`), not as unsaved untitled files.
import * as vscode from 'vscode';

export const AUDIT_LOG_SCHEME = 'compliance-evidence-auditlog';

export class AuditLogDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** The document's URI for this environment's log; fetching again replaces the shown text. */
  put(environment: string, csv: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: AUDIT_LOG_SCHEME, path: `/${environment} audit log.csv` });
    this.contents.set(uri.toString(), csv);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }
}

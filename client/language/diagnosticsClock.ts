// Whether the language server has spoken about the current text of a document, and what it said.
import * as vscode from 'vscode';
import { diagnosticSource } from '../../shared/protocol.ts';

/**
 * The language server's errors for the document, after waiting (bounded) for it to publish for
 * the latest edit; a server that stays silent does not block the command: the API checks again.
 */
export async function languageServerErrors(
  document: vscode.TextDocument,
  changedAt: number | undefined,
  timeoutMs = 3000,
): Promise<vscode.Diagnostic[]> {
  const errorsNow = () =>
    vscode.languages
      .getDiagnostics(document.uri)
      .filter((d) => d.source === diagnosticSource && d.severity === vscode.DiagnosticSeverity.Error);
  if (changedAt === undefined) return errorsNow();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    const listener = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((uri) => uri.toString() === document.uri.toString())) done();
    });
    function done() {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
  return errorsNow();
}

/** Remembers when each document last changed and when the server last published for it. */
export class DiagnosticsClock implements vscode.Disposable {
  private readonly changed = new Map<string, number>();
  private readonly published = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => this.changed.set(event.document.uri.toString(), Date.now())),
      vscode.workspace.onDidOpenTextDocument((document) => this.changed.set(document.uri.toString(), Date.now())),
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const uri of event.uris) this.published.set(uri.toString(), Date.now());
      }),
    ];
  }

  /** The time of the last change the server has not published for yet, or undefined. */
  pendingSince(uri: vscode.Uri): number | undefined {
    const changed = this.changed.get(uri.toString());
    if (changed === undefined) return undefined;
    const published = this.published.get(uri.toString()) ?? 0;
    return published >= changed ? undefined : changed;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

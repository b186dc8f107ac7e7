// Starts the bundled language server over IPC for YAML and JSON documents (it decides per document
// whether it is one of ours), keeps its settings current, and shows the detected kind.
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { currentLanguageSettings, documentKindOf, kindLabels } from './documentKind.ts';

export const documentSelector = [
  { scheme: 'file', language: 'yaml' },
  { scheme: 'untitled', language: 'yaml' },
  { scheme: 'file', language: 'json' },
  { scheme: 'untitled', language: 'json' },
];

export function createLanguageClient(context: vscode.ExtensionContext): LanguageClient {
  const module = context.asAbsolutePath('dist/language-server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    initializationOptions: currentLanguageSettings(),
    outputChannel: vscode.window.createOutputChannel('Compliance Evidence Language Server', { log: true }),
  };
  const client = new LanguageClient(
    'complianceEvidence',
    'Compliance Evidence Language Server',
    serverOptions,
    clientOptions,
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (
        !event.affectsConfiguration('complianceEvidence.files') &&
        !event.affectsConfiguration('complianceEvidence.diagnostics')
      )
        return;
      if (client.isRunning())
        void client.sendNotification(DidChangeConfigurationNotification.type, { settings: currentLanguageSettings() });
    }),
  );
  return client;
}

/** The language status item: the kind of the active document, or that it is none of ours. */
export function createKindStatus(context: vscode.ExtensionContext): void {
  const item = vscode.languages.createLanguageStatusItem('complianceEvidence.documentKind', documentSelector);
  item.name = 'Compliance Evidence document kind';
  const update = () => {
    const document = vscode.window.activeTextEditor?.document;
    const kind = document ? documentKindOf(document) : undefined;
    item.text = kind ? `$(shield) ${kindLabels[kind]}` : 'Not a Compliance Evidence document';
    item.detail = kind
      ? 'Compliance Evidence'
      : 'Name it *flow-template*.yml, *env-policy*.yml, … or add `# cev: flow-template` or a `# yaml-language-server: $schema=` modeline';
    item.severity = vscode.LanguageStatusSeverity.Information;
  };
  update();
  context.subscriptions.push(
    item,
    vscode.window.onDidChangeActiveTextEditor(update),
    vscode.workspace.onDidChangeConfiguration(
      (event) => event.affectsConfiguration('complianceEvidence.files') && update(),
    ),
    vscode.workspace.onDidSaveTextDocument(update),
  );
}

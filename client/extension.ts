// Entry point of the extension (dist/extension.js): wires the parts together, nothing more.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { affectsConnection } from './auth/settings.ts';
import { Session } from './auth/session.ts';
import type { CommandContext } from './commands/context.ts';
import { AUDIT_LOG_SCHEME, AuditLogDocuments } from './documents/auditLogDocuments.ts';
import { DiagnosticsClock } from './language/diagnosticsClock.ts';
import { reportK8s, showAuditLog } from './commands/environmentCommands.ts';
import { attestScan, beginTrail, createFlow } from './commands/flowCommands.ts';
import {
  localServerMenu,
  openInBrowser,
  refresh,
  signIn,
  signOut,
  startLocalServer,
  stopLocalServer,
  syncLocal,
} from './commands/generalCommands.ts';
import { search } from './commands/searchCommand.ts';
import { createKindStatus, createLanguageClient } from './language/languageClient.ts';
import { policyDryRun, shareServerAccess, showPreviewList } from './language/previews.ts';
import { LocalServerManager } from './localServer/manager.ts';
import { createExtensionApi, type ExtensionApi } from './extensionApi.ts';
import { compareSnapshots, showDetails, showSelected } from './details/commands.ts';
import { DetailPanels } from './details/panels.ts';
import { environmentsSource } from './tree/environmentsSource.ts';
import { flowsSource } from './tree/flowsSource.ts';
import type { TreeNode } from './tree/nodes.ts';
import { NodeTreeProvider } from './tree/treeProvider.ts';
import { isEnvironmentRowId } from './tree/rowIds.ts';
import { startPolling } from './tree/polling.ts';
import { pickEnvironmentCommand, showPreviewListCommand } from '../shared/protocol.ts';

let localServer: LocalServerManager | undefined;
let languageClient: LanguageClient | undefined;

export async function activate(extension: vscode.ExtensionContext): Promise<ExtensionApi> {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Compliance Evidence', { log: true });
  const session = new Session(extension.secrets);
  localServer = new LocalServerManager(extension);
  const flows = new NodeTreeProvider(flowsSource, () => session.api);
  const environments = new NodeTreeProvider(environmentsSource, () => session.api);
  const flowsView = vscode.window.createTreeView('complianceEvidence.flows', {
    treeDataProvider: flows,
    showCollapseAll: true,
  });
  const environmentsView = vscode.window.createTreeView('complianceEvidence.environments', {
    treeDataProvider: environments,
    showCollapseAll: true,
  });
  const details = new DetailPanels(extension, () => session.api, log);
  const context: CommandContext = {
    extension,
    session,
    localServer,
    flows,
    environments,
    flowsView,
    environmentsView,
    log,
    details,
  };
  const clock = new DiagnosticsClock();
  const auditLogs = new AuditLogDocuments();

  for (const [view, key] of [
    [flows, 'complianceEvidence.flows.empty'],
    [environments, 'complianceEvidence.environments.empty'],
  ] as const) {
    view.onDidLoadRoots((state) => {
      void vscode.commands.executeCommand('setContext', key, state === 'empty');
      if (state === 'unreachable' || state === 'unauthorized')
        session.reportProblem(state === 'unreachable' ? 'unreachable' : 'signedOut');
    });
  }

  const command = (id: string, run: (arg?: unknown) => unknown) => vscode.commands.registerCommand(id, run);
  extension.subscriptions.push(
    log,
    session,
    localServer,
    clock,
    details,
    flowsView,
    environmentsView,
    session.onDidChange(() => {
      flows.refreshAll();
      environments.refreshAll();
    }),
    localServer.onDidChange(() => void syncLocal(context)),
    // Selecting a row (a click, or Enter/Space on it) shows its details; a click still expands it
    // too, which a TreeItem command would not, and arrow keys only move the focus.
    ...[flowsView, environmentsView].map((view) =>
      view.onDidChangeSelection(
        (event) => event.selection.length === 1 && void showSelected(details, event.selection[0]),
      ),
    ),
    vscode.workspace.onDidChangeConfiguration((event) => affectsConnection(event) && void session.update()),
    command('complianceEvidence.localServer.start', () => startLocalServer(context)),
    command('complianceEvidence.localServer.stop', () => stopLocalServer(context)),
    command('complianceEvidence.localServer.menu', () => localServerMenu(context)),
    command('complianceEvidence.signIn', () => signIn(context)),
    command('complianceEvidence.signOut', () => signOut(context)),
    command('complianceEvidence.refresh', (arg) => refresh(context, arg)),
    command('complianceEvidence.loadMore', (node) =>
      isEnvironmentRowId((node as TreeNode).id)
        ? environments.loadMore(node as TreeNode)
        : flows.loadMore(node as TreeNode),
    ),
    command('complianceEvidence.createFlow', (arg) => createFlow(context, clock, arg)),
    command('complianceEvidence.beginTrail', (arg) => beginTrail(context, arg)),
    command('complianceEvidence.attestScan', (arg) => attestScan(context, arg)),
    command('complianceEvidence.reportK8s', (arg) => reportK8s(context, arg)),
    command('complianceEvidence.search', (arg) => search(context, arg)),
    command('complianceEvidence.openInBrowser', (arg) => openInBrowser(context, arg)),
    command('complianceEvidence.showAuditLog', (arg) => showAuditLog(context, auditLogs, arg)),
    command('complianceEvidence.showDetails', (arg) => showDetails(details, arg)),
    command('complianceEvidence.compareSnapshots', (arg) => compareSnapshots(context, details, arg)),
    vscode.workspace.registerTextDocumentContentProvider(AUDIT_LOG_SCHEME, auditLogs),
    startPolling(flowsView, environmentsView, flows, environments),
  );

  createKindStatus(extension);
  const client = createLanguageClient(extension);
  languageClient = client;
  extension.subscriptions.push(
    command(showPreviewListCommand, (list) => showPreviewList(list)),
    command(pickEnvironmentCommand, (uri) => policyDryRun(client, uri)),
  );
  client.start().then(
    () => extension.subscriptions.push(shareServerAccess(client, session)),
    (error: unknown) =>
      log.error(`The language server did not start: ${error instanceof Error ? error.message : String(error)}`),
  );

  await session.update();
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms`);
  return createExtensionApi(context, activationMs);
}

export async function deactivate(): Promise<void> {
  await Promise.all([localServer?.stop(), languageClient?.stop()]);
}

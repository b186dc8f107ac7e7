// Report a K8S environment (from a JSON report file or from kubectl) and show an audit log.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../shared/apiClient/client.ts';
import type { AuditLogDocuments } from '../documents/auditLogDocuments.ts';
import { apiOrExplain, argsOf, showFailure, uriOf, withProgress, type CommandContext } from './context.ts';
import { kubectlPath, kubectlPods } from './kubectl.ts';
import { environmentNameProblem } from './names.ts';
import { pickFile } from './pickers.ts';
import { reportOf, type ReportSource } from './report.ts';

export async function reportK8s(context: CommandContext, arg?: unknown): Promise<boolean> {
  const args = argsOf(arg);
  const api = await apiOrExplain(context);
  if (!api) return false;
  try {
    const environment = args.environment ?? (await pickK8sEnvironment(api));
    if (!environment) return false;
    const source = await reportSource(args.file);
    if (source === undefined) return false;
    await withProgress(`Reporting ${environment}…`, async () => {
      const known = (await api.listEnvironments()).some((candidate) => candidate.name === environment);
      if (!known) await api.createEnvironment(environment, 'K8S', 'Reported from VS Code');
      await api.reportK8s(environment, source.report);
    });
    for (const skip of source.skipped)
      context.log.warn(
        `Not reported: ${skip.namespace}/${skip.podName}${skip.container ? `/${skip.container}` : ''}: ${skip.reason}`,
      );
    const skipped =
      source.skipped.length > 0
        ? ` ${source.skipped.length} container${source.skipped.length === 1 ? '' : 's'} without an image digest could not be reported (see the log).`
        : '';
    context.log.info(`K8S report sent to ${environment}`);
    void vscode.window.showInformationMessage(`Environment '${environment}' reported.${skipped}`);
    if (context.environments.node(`env/${environment}`)) await context.environments.refresh(`env/${environment}`);
    else context.environments.refreshAll();
    return true;
  } catch (error) {
    showFailure(context, 'Reporting the environment', error);
    return false;
  }
}

async function pickK8sEnvironment(api: ApiClient): Promise<string | undefined> {
  const environments = (await api.listEnvironments()).filter((environment) => environment.type === 'K8S');
  const NEW = 'New K8S environment…';
  const picked = await vscode.window.showQuickPick(
    [
      ...environments.map((environment) => ({ label: environment.name, description: environment.description })),
      { label: NEW },
    ],
    {
      placeHolder: 'Report which environment?',
      ignoreFocusOut: true,
    },
  );
  if (!picked) return undefined;
  if (picked.label !== NEW) return picked.label;
  return vscode.window.showInputBox({
    title: 'New K8S environment',
    prompt: 'Environment name',
    validateInput: environmentNameProblem,
    ignoreFocusOut: true,
  });
}

/** The report body from a file (a report or kubectl's pods JSON), or from kubectl itself. */
async function reportSource(file: string | undefined): Promise<ReportSource | undefined> {
  let uri = file ? uriOf(file) : undefined;
  if (!uri) {
    const kubectl = await kubectlPath();
    const items = [
      { label: 'From a JSON file…', description: 'a K8S report or the output of kubectl get pods -A -o json' },
    ];
    if (kubectl)
      items.push({ label: 'From kubectl', description: 'kubectl get pods -A -o json, in the current context' });
    const choice = await vscode.window.showQuickPick(items, { placeHolder: 'What is running?', ignoreFocusOut: true });
    if (!choice) return undefined;
    if (choice.label === 'From kubectl' && kubectl)
      return reportOf(await withProgress('Running kubectl get pods…', () => kubectlPods(kubectl)));
    uri = await pickFile('K8S report or pods JSON', { JSON: ['json'] });
    if (!uri) return undefined;
  }
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  try {
    return reportOf(JSON.parse(text));
  } catch (error) {
    throw new Error(`${path.basename(uri.fsPath)}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** Opens the environment's audit log (CSV) in a read-only editor; returns its text. */
export async function showAuditLog(
  context: CommandContext,
  documents: AuditLogDocuments,
  arg?: unknown,
): Promise<string | undefined> {
  const args = argsOf(arg);
  const api = await apiOrExplain(context);
  if (!api) return undefined;
  try {
    const environment = args.environment ?? (await pickEnvironment(api));
    if (!environment) return undefined;
    const csv = await withProgress(`Fetching the audit log of ${environment}…`, () => api.auditLog(environment));
    const document = await vscode.workspace.openTextDocument(documents.put(environment, csv));
    await vscode.window.showTextDocument(document, { preview: false });
    return csv;
  } catch (error) {
    showFailure(context, 'Fetching the audit log', error);
    return undefined;
  }
}

async function pickEnvironment(api: ApiClient): Promise<string | undefined> {
  const environments = await api.listEnvironments();
  if (environments.length === 0) {
    void vscode.window.showInformationMessage('There are no environments yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    environments.map((environment) => ({ label: environment.name, description: environment.type })),
    { placeHolder: 'Environment', ignoreFocusOut: true },
  );
  return picked?.label;
}

// Create or update a flow from the template in the editor, begin a trail, attest a scan result.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { apiOrExplain, argsOf, showFailure, uriOf, withProgress, type CommandContext } from './context.ts';
import { languageServerErrors, type DiagnosticsClock } from '../language/diagnosticsClock.ts';
import { flowNameFromFile, flowNameProblem } from './names.ts';
import { pickFile, pickFlow, pickTrail } from './pickers.ts';
import { verdictOf } from './verdict.ts';

export async function createFlow(context: CommandContext, clock: DiagnosticsClock, arg?: unknown): Promise<boolean> {
  const args = argsOf(arg);
  const document = args.file
    ? await vscode.workspace.openTextDocument(uriOf(args.file))
    : vscode.window.activeTextEditor?.document;
  if (!document || document.languageId !== 'yaml') {
    void vscode.window.showWarningMessage('Open a flow template (YAML) in the editor first.');
    return false;
  }
  const errors = await languageServerErrors(document, clock.pendingSince(document.uri));
  if (errors.length > 0) {
    const first = errors[0];
    const choice = await vscode.window.showErrorMessage(
      `The template has ${errors.length} error${errors.length === 1 ? '' : 's'}; fix ${errors.length === 1 ? 'it' : 'them'} first. Line ${first.range.start.line + 1}: ${first.message}`,
      'Show Problems',
    );
    if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    return false;
  }
  const api = await apiOrExplain(context);
  if (!api) return false;
  const name =
    args.name ??
    (await vscode.window.showInputBox({
      title: 'Create or Update Flow from Template',
      prompt: 'Flow name',
      value: flowNameFromFile(document.fileName) ?? '',
      validateInput: flowNameProblem,
      ignoreFocusOut: true,
    }));
  if (!name) return false;
  const description =
    args.description ??
    (await vscode.window.showInputBox({
      title: `Flow ${name}`,
      prompt: 'Description (optional)',
      value: (await api.getFlow(name).catch(() => undefined))?.description ?? '',
      ignoreFocusOut: true,
    }));
  if (description === undefined) return false;
  try {
    const result = await withProgress(`Uploading the template of flow ${name}…`, () =>
      api.putFlowTemplate(name, description, {
        name: path.basename(document.fileName) || 'flow-template.yml',
        bytes: new TextEncoder().encode(document.getText()),
        contentType: 'application/x-yaml',
      }),
    );
    context.log.info(`Flow ${name} ${result.created ? 'created' : 'updated'} from ${document.uri.toString()}`);
    void vscode.window.showInformationMessage(`Flow '${name}' ${result.created ? 'created' : 'updated'}.`);
    if (context.flows.node(`flow/${name}`)) await context.flows.refresh(`flow/${name}`);
    else context.flows.refreshAll();
    return true;
  } catch (error) {
    showFailure(context, `Uploading the template of flow '${name}'`, error);
    return false;
  }
}

export async function beginTrail(context: CommandContext, arg?: unknown): Promise<boolean> {
  const args = argsOf(arg);
  const api = await apiOrExplain(context);
  if (!api) return false;
  try {
    const flow = args.flow ?? (await pickFlow(api, 'Begin a trail in which flow?'));
    if (!flow) return false;
    const trail =
      args.name ??
      (await vscode.window.showInputBox({
        title: `Begin Trail in ${flow}`,
        prompt: 'Trail name (e.g. the commit SHA or build number)',
        validateInput: flowNameProblem,
        ignoreFocusOut: true,
      }));
    if (!trail) return false;
    const result = await withProgress(`Beginning trail ${trail}…`, () => api.beginTrail(flow, trail, args.description));
    void vscode.window.showInformationMessage(
      `Trail '${trail}' ${result.created ? 'begun' : 'updated'} in flow '${flow}'.`,
    );
    await context.flows.refresh(`flow/${flow}`);
    return true;
  } catch (error) {
    showFailure(context, 'Beginning the trail', error);
    return false;
  }
}

/** Returns the verdict sentence shown to the user, or undefined when nothing was attested. */
export async function attestScan(context: CommandContext, arg?: unknown): Promise<string | undefined> {
  const args = argsOf(arg);
  const api = await apiOrExplain(context);
  if (!api) return undefined;
  try {
    const flow = args.flow ?? (await pickFlow(api, 'Attest in which flow?'));
    if (!flow) return undefined;
    const trail = args.trail ?? (await pickTrail(api, flow));
    if (!trail) return undefined;
    const source = await scanSource(args.file);
    if (!source) return undefined;
    let data: unknown;
    try {
      data = JSON.parse(source.text);
    } catch (error) {
      void vscode.window.showErrorMessage(
        `${source.label} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
    const attachment = await attachmentOf(args.attachment);
    if (attachment === null) return undefined;
    const name =
      typeof data === 'object' &&
      data !== null &&
      'attestation_name' in data &&
      typeof data.attestation_name === 'string'
        ? data.attestation_name
        : '';
    const verdict = await withProgress(`Attesting scan result ${name} in ${flow}/${trail}…`, async () => {
      await api.attestScan(flow, trail, data, attachment);
      return verdictOf(await api.getTrail(flow, trail), name);
    });
    context.log.info(`Scan attestation ${name} recorded in ${flow}/${trail}: ${verdict}`);
    void vscode.window.showInformationMessage(`Scan attestation '${name}' recorded in ${flow}/${trail}. ${verdict}`);
    await context.flows.refresh(`flow/${flow}/trail/${trail}`);
    await context.flows.refresh(`flow/${flow}`, { keepChildren: true });
    return verdict;
  } catch (error) {
    showFailure(context, 'Attesting the scan result', error);
    return undefined;
  }
}

/** The attestation payload: the given file, the active JSON editor, or a file the user picks. */
async function scanSource(file: string | undefined): Promise<{ text: string; label: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!file && editor && editor.document.languageId === 'json')
    return { text: editor.document.getText(), label: path.basename(editor.document.fileName) };
  const uri = file ? uriOf(file) : await pickFile('Scan attestation payload (JSON)', { JSON: ['json'] });
  return uri
    ? { text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), label: path.basename(uri.fsPath) }
    : undefined;
}

/** undefined for no attachment, null when the user cancelled. */
async function attachmentOf(
  given: string | false | undefined,
): Promise<{ name: string; bytes: Uint8Array } | undefined | null> {
  let file: vscode.Uri | undefined;
  if (given === false) return undefined;
  if (given) file = uriOf(given);
  else {
    const choice = await vscode.window.showQuickPick(
      [{ label: 'No attachment' }, { label: 'Attach a file…', description: 'evidence, at most 10 MB' }],
      {
        placeHolder: 'Attach evidence to the attestation?',
        ignoreFocusOut: true,
      },
    );
    if (!choice) return null;
    if (choice.label === 'No attachment') return undefined;
    file = await pickFile('Evidence file');
    if (!file) return null;
  }
  return { name: path.basename(file.fsPath), bytes: await vscode.workspace.fs.readFile(file) };
}

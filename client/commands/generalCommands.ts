// Sign in/out, refresh, open in browser, and the local server's start/stop/menu.
import * as vscode from 'vscode';
import { argsOf, showFailure, type CommandContext } from './context.ts';
import { isEnvironmentRowId } from '../tree/rowIds.ts';

export async function signIn(context: CommandContext): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: 'Compliance Evidence: Sign In',
    prompt: 'API key (kept in VS Code secret storage)',
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() === '' ? 'Enter an API key' : undefined),
  });
  if (!key) return false;
  await context.session.signIn(key.trim());
  context.log.info('Signed in: API key stored in secret storage.');
  const note = context.session.usesLocal
    ? ' The views keep using the local server while it runs; choose "Use Remote Server" from its status bar item to switch.'
    : '';
  void vscode.window.showInformationMessage(`Signed in.${note}`);
  return true;
}

export async function signOut(context: CommandContext): Promise<void> {
  await context.session.signOut();
  context.log.info('Signed out: API key removed from secret storage.');
  void vscode.window.showInformationMessage('Signed out.');
}

export async function refresh(context: CommandContext, arg?: unknown): Promise<void> {
  if (typeof arg === 'object' && arg !== null && 'id' in arg && 'kind' in arg) {
    const id = String(arg.id);
    await (isEnvironmentRowId(id) ? context.environments.refresh(id) : context.flows.refresh(id));
    return;
  }
  await context.session.update();
}

export async function openInBrowser(context: CommandContext, arg?: unknown): Promise<boolean> {
  const selected = context.flowsView.selection[0] ?? context.environmentsView.selection[0];
  const url = argsOf(arg).url ?? selected?.htmlUrl;
  if (!url) {
    void vscode.window.showInformationMessage(
      'Select a flow, trail, attestation, artifact, environment or snapshot first.',
    );
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(url));
}

export async function startLocalServer(context: CommandContext): Promise<string | undefined> {
  try {
    const status = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Starting the local server…' },
      () => context.localServer.start(),
    );
    return status.url;
  } catch (error) {
    const choice = await vscode.window.showErrorMessage(
      `The local server did not start: ${error instanceof Error ? error.message : String(error)}`,
      'Open Log',
    );
    if (choice) context.localServer.log.show();
    return undefined;
  }
}

export async function stopLocalServer(context: CommandContext): Promise<void> {
  try {
    await context.localServer.stop();
  } catch (error) {
    showFailure(context, 'Stopping the local server', error);
  }
}

/** The status bar item's menu. */
export async function localServerMenu(context: CommandContext): Promise<void> {
  const { state, url } = context.localServer.status;
  const items: (vscode.QuickPickItem & { run: () => unknown })[] = [];
  if (state === 'running' && url) {
    items.push(
      { label: '$(debug-stop) Stop Local Server', run: () => stopLocalServer(context) },
      { label: '$(copy) Copy URL', description: url, run: () => vscode.env.clipboard.writeText(url) },
      {
        label: '$(key) Copy API Key',
        description: 'the local admin key',
        run: async () => vscode.env.clipboard.writeText(await context.localServer.adminKey()),
      },
    );
    if (context.session.usesLocal)
      items.push({
        label: '$(cloud) Use Remote Server',
        description: 'the views show the remote from the settings',
        run: () => context.session.useRemote(),
      });
    else
      items.push({
        label: '$(server) Use Local Server',
        description: 'the views show the local server',
        run: () => syncLocal(context),
      });
  } else {
    items.push({ label: '$(play) Start Local Server', run: () => startLocalServer(context) });
  }
  items.push({ label: '$(output) Open Log', run: () => context.localServer.log.show() });
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: `Local server: ${state}${url ? ` at ${url}` : ''}`,
  });
  await picked?.run();
}

/** Points the session at the local server while it runs, and away from it when it stops. */
export async function syncLocal(context: CommandContext): Promise<void> {
  const { state, url, org } = context.localServer.status;
  if (state === 'running' && url)
    await context.session.useLocal({ url, org: org ?? 'default', key: await context.localServer.adminKey() });
  else await context.session.useLocal(undefined);
}

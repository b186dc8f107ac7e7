// "Sign In" asks for the API key in a password box and keeps it in secret storage, never in the
// settings: with the views on a remote server, the stored key is what opens that server's flows.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { startApiServer, type ApiServer } from './support/apiServer.ts';
import { extensionApi } from './support/extension.ts';
import { call, multipart } from './support/localApi.ts';
import { hasPage, page } from './support/page.ts';
import { shownRow } from './support/sidebar.ts';
import { fixtureText } from './support/fixtures.ts';
import { waitFor } from '../../support/wait.ts';

const org = 'e2e-remote';
const flow = 'remote-only';

describe('sign in', () => {
  let remote: ApiServer | undefined;
  const key = randomBytes(18).toString('hex');
  const settings = () => vscode.workspace.getConfiguration('complianceEvidence');

  before(async function () {
    if (!hasPage()) this.skip();
    remote = await startApiServer(org, key);
    await call(
      { base: `${remote.url}/api/v2`, org, key },
      'PUT',
      `flows/${org}/template_file`,
      multipart({
        data_json: JSON.stringify({ name: flow, description: 'Only on the remote server' }),
        template_file: { name: 'release.flow-template.yml', text: fixtureText('release.flow-template.yml') },
      }),
    );
  });

  after(async () => {
    await settings().update('customUrl', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('org', undefined, vscode.ConfigurationTarget.Global);
    await remote?.stop();
  });

  it('stores the key from the password box, and the views use it on the remote server', async () => {
    await settings().update('customUrl', remote!.url, vscode.ConfigurationTarget.Global);
    await settings().update('org', org, vscode.ConfigurationTarget.Global);
    const signedIn = vscode.commands.executeCommand<boolean>('complianceEvidence.signIn');
    await page.fillQuickInput(key);
    assert.equal(await signedIn, true);
    assert.ok(!JSON.stringify(settings()).includes(key), 'the key is not in the settings');

    // The local server still runs and keeps the views until the user picks the remote.
    const menu = vscode.commands.executeCommand('complianceEvidence.localServer.menu');
    await page.fillQuickInput('Use Remote Server');
    await menu;
    const api = await extensionApi();
    await waitFor(() => api.connection().kind === 'remote', 'the views to use the remote server');
    assert.deepEqual(api.connection(), { kind: 'remote', apiBase: `${remote!.url}/api/v2`, org });
    const flows = await waitFor(async () => {
      const rows = await api.children('flows');
      return rows.some((row) => row.label === flow) ? rows : undefined;
    }, 'the remote flows');
    assert.deepEqual(
      flows.map((row) => row.label),
      [flow],
    );
    await shownRow(flow);
  });

  it('forgets the key on sign out', async () => {
    await vscode.commands.executeCommand('complianceEvidence.signOut');
    const api = await extensionApi();
    await waitFor(async () => (await api.children('flows')).length === 0, 'the flows to go');
    await waitFor(
      async () =>
        (await page.query('#workbench\\.parts\\.sidebar .welcome-view-content')).some((view) =>
          view.text.includes('Sign in with an API key'),
        ),
      'the sign-in welcome',
    );
    await page.screenshot('sidebar-signed-out');
  });
});

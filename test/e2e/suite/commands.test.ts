// The commands a user runs from the palette or an editor: upload the template in the editor as a
// flow (refused while the language server reports errors), search, and an environment's audit log.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixtureInWorkspace } from './support/fixtures.ts';
import { call, localApi } from './support/localApi.ts';
import { hasPage, page } from './support/page.ts';
import { workspaceDir } from './support/paths.ts';
import { shownRow } from './support/sidebar.ts';
import { waitFor } from '../../support/wait.ts';

describe('commands', () => {
  before(function () {
    if (!hasPage()) this.skip();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('creates a flow from the template in the active editor', async () => {
    const file = fixtureInWorkspace('release.flow-template.yml', 'service.flow-template.yml');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    const created = await vscode.commands.executeCommand<boolean>('complianceEvidence.createFlow', {
      name: 'e2e-service',
      description: 'Uploaded from the editor',
    });
    assert.equal(created, true);
    await shownRow('e2e-service');
  });

  it('refuses to upload a template the language server finds errors in, and says why', async () => {
    const file = path.join(workspaceDir(), 'unfinished.flow-template.yml');
    writeFileSync(file, 'version: 1\ntrail:\n  attestations:\n    - name: unit-tests\n');
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    await waitFor(
      () => vscode.languages.getDiagnostics(document.uri).length > 0,
      'the language server to report the missing type',
      30_000,
    );
    // The command waits for the user to answer its error message ("Show Problems"), so it is not awaited yet.
    const created = vscode.commands.executeCommand<boolean>('complianceEvidence.createFlow', {
      name: 'e2e-unfinished',
      description: '',
    });
    await waitFor(
      async () =>
        (await page.query('.notifications-toasts .notification-list-item-message')).some((toast) =>
          /The template has 1 error.*Line 4/.test(toast.text),
        ),
      'the notification that says why',
    );
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.equal(await created, false);
    const api = await localApi();
    const flows = (await call(api, 'GET', `flows/${api.org}`)) as { name: string }[];
    assert.ok(!flows.some((flow) => flow.name === 'e2e-unfinished'), 'nothing was uploaded');
  });

  it('finds an artifact by a fingerprint prefix and reveals it in the Flows view', async () => {
    const api = await localApi();
    // The image the K8S report saw running, now attested in the release trail.
    const fingerprint = 'a'.repeat(64);
    await call(api, 'POST', `artifacts/${api.org}/e2e-release`, {
      fingerprint,
      filename: 'api.tar',
      trail_name: 'build-1',
      git_commit: '4f2a9c1e0b7d6a5c3e8f1a2b4c6d8e0f1a3b5c7d',
    });
    // No Refresh first: the trail row was loaded before this artifact existed, and search must find it anyway.
    const revealed = await vscode.commands.executeCommand<string | undefined>('complianceEvidence.search', {
      name: fingerprint.slice(0, 10),
    });
    assert.match(revealed ?? '', /^flow\/e2e-release\/trail\/build-1\/artifact\/.+/);
    const label = revealed!.slice(revealed!.lastIndexOf('/') + 1);
    const row = await shownRow(label, (shown) => shown.selected === 'true');
    assert.match(row.text, /aaaaaaaaaaaa/);
  });

  it('opens the audit log of a reported environment as CSV', async () => {
    const csv = await vscode.commands.executeCommand<string | undefined>('complianceEvidence.showAuditLog', {
      environment: 'e2e-cluster',
    });
    assert.ok(csv, 'the command returned the CSV');
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    assert.match(header, /event_type/);
    assert.equal(rows.filter((row) => row.includes(',started,')).length, 2, csv);
    assert.equal(vscode.window.activeTextEditor?.document.getText(), csv);
  });
});

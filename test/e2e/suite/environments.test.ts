// "Report K8S Environment" with a report file: the environment and its first snapshot show up in
// the Environments view, with the artifacts the snapshot saw running.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './support/extension.ts';
import { fixtureInWorkspace } from './support/fixtures.ts';
import { hasPage, page } from './support/page.ts';
import { expandRow, openRow, shownRow } from './support/sidebar.ts';

const environment = 'e2e-cluster';

describe('environments view', () => {
  before(function () {
    if (!hasPage()) this.skip();
  });

  it('shows a reported K8S environment with its snapshot', async () => {
    const file = fixtureInWorkspace('cluster.k8s-report.json');
    const reported = await vscode.commands.executeCommand<boolean>('complianceEvidence.reportK8s', {
      environment,
      file,
    });
    assert.equal(reported, true);
    await vscode.commands.executeCommand('workbench.view.extension.complianceEvidence');
    await expandRow(environment, '#1');
    await openRow('#1');

    const api = await extensionApi();
    const snapshots = await api.children('environments', `env/${environment}`);
    assert.deepEqual(
      snapshots.map((row) => row.label),
      ['#1'],
    );
    const running = await api.children('environments', snapshots[0].id);
    assert.equal(running.length, 2, `two artifacts in the snapshot: ${running.map((row) => row.label).join(', ')}`);
    for (const artifact of running) await shownRow(artifact.label);
    await page.screenshot('sidebar-environments');
  });
});

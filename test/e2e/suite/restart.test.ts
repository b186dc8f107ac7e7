// The local server stops and starts again from the palette; what it stored survives, and the views
// fill from it. Times "Start Local Server" until both views show their rows again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './support/extension.ts';
import { record } from './support/figures.ts';
import { hasPage, page } from './support/page.ts';
import { shownRow } from './support/sidebar.ts';
import { waitFor } from '../../support/wait.ts';

describe('local server restart', () => {
  before(function () {
    if (!hasPage()) this.skip();
  });

  it('stops from the palette and takes its status bar item away', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('complianceEvidence.localServer.stop');
    assert.equal(api.localServer().state, 'stopped');
    await waitFor(
      async () =>
        !(await page.query('#workbench\\.parts\\.statusbar .statusbar-item')).some((item) =>
          item.text.includes('Local server'),
        ),
      'the status bar item to go',
    );
  });

  it('starts again with the stored flows and environments in the views', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.complianceEvidence');
    const started = performance.now();
    const url = await vscode.commands.executeCommand<string | undefined>('complianceEvidence.localServer.start');
    assert.ok(url);
    await Promise.all([shownRow('e2e-release'), shownRow('e2e-cluster')]);
    record(
      '"Start Local Server" → both views populated (restart, stored data)',
      `${Math.round(performance.now() - started)} ms`,
    );
  });
});

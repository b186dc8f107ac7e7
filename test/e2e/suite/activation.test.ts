// The extension activates on demand in a real VS Code and shows its container and views.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../client/extensionApi.ts';
import { record } from './support/figures.ts';
import { hasPage, page } from './support/page.ts';
import { EXTENSION_ID } from './support/paths.ts';
import { waitFor } from './support/wait.ts';

describe('activation', () => {
  it('activates and returns its API, with the activate() duration', async () => {
    const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    const api = await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.activationMs, 'number');
    record('activate() duration (as the extension logs it)', `${api.activationMs.toFixed(1)} ms`);
  });

  it('shows the Compliance Evidence container with the Flows and Environments views', async function () {
    if (!hasPage()) this.skip();
    await vscode.commands.executeCommand('workbench.view.extension.complianceEvidence');
    const headers = await waitFor('both view headers', async () => {
      const shown = await page.query('.pane-header .title');
      const titles = shown.map((element) => element.text.trim().toLowerCase());
      return titles.includes('flows') && titles.includes('environments') ? titles : undefined;
    });
    assert.ok(headers.includes('flows'));
    await page.screenshot('sidebar-after-activation');
  });
});

// Activation is lazy: nothing runs until the user opens the extension's views, which then activate
// it and show its container with the Flows and Environments views.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../client/extensionApi.ts';
import { record } from './support/figures.ts';
import { hasPage, page } from './support/page.ts';
import { EXTENSION_ID } from './support/paths.ts';
import { waitFor } from '../../support/wait.ts';

describe('activation', () => {
  const extension = () => {
    const found = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is loaded`);
    return found;
  };

  it('is not active while nothing of its own is used', () => {
    assert.equal(extension().isActive, false);
  });

  it('activates when its views open, and says how long activate() took', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.complianceEvidence');
    await waitFor(() => extension().isActive, 'the extension to activate');
    const api = extension().exports;
    assert.equal(typeof api.activationMs, 'number');
    record('activate() duration (as the extension logs it)', `${api.activationMs.toFixed(1)} ms`);
  });

  it('shows the Compliance Evidence container with the Flows and Environments views', async function () {
    if (!hasPage()) this.skip();
    const titles = await waitFor(async () => {
      const shown = (await page.query('.pane-header .title')).map((element) => element.text.trim().toLowerCase());
      return shown.includes('flows') && shown.includes('environments') ? shown : undefined;
    }, 'both view headers');
    assert.ok(titles.includes('flows'));
    await page.screenshot('sidebar-after-activation');
  });
});

// The template impact lens in a real editor against the local server: a template named for a flow
// gets, at its top, what it would do to that flow's trails, and clicking the lens lists the trails
// that change with their slots.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixtureText } from './support/fixtures.ts';
import { hasPage, page } from './support/page.ts';
import { workspaceDir } from './support/paths.ts';
import { waitFor } from '../../support/wait.ts';

/** The flow the flows tests created, with its one trail. */
const flow = 'e2e-release';
const trail = 'build-1';

describe('template impact lens', () => {
  before(function () {
    if (!hasPage()) this.skip();
  });

  it("shows at the top of an edited template what it does to the flow's trails, and lists them on a click", async () => {
    const edited = fixtureText('release.flow-template.yml').replace(
      'trail:\n  attestations:\n',
      'trail:\n  attestations:\n    - name: sbom\n      type: generic\n',
    );
    const file = path.join(workspaceDir(), `${flow}.flow-template.yml`);
    writeFileSync(file, edited);
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);

    const lens = await waitFor(
      async () => {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
          'vscode.executeCodeLensProvider',
          document.uri,
        );
        return lenses.find((found) => /^flow e2e-release · \d+ trails?:/.test(found.command?.title ?? ''));
      },
      'the impact lens',
      30_000,
    );
    assert.equal(lens.command!.title, 'flow e2e-release · 1 trail: 1 stays NON-COMPLIANT');
    assert.equal(lens.range.start.line, 0);

    await waitFor(
      async () =>
        (await page.query('.monaco-editor .codelens-decoration')).some((shown) =>
          shown.text.includes('flow e2e-release · 1 trail'),
        ),
      'the lens drawn above the first line',
    );
    await page.screenshot('template-impact-lens');
    await page.click('.monaco-editor .codelens-decoration a', { text: 'flow e2e-release' });
    const row = await waitFor(
      async () =>
        (await page.query('.quick-input-widget .monaco-list-row')).find((shown) => shown.text.includes(trail)),
      'the trail in the list',
    );
    assert.match(row.text, /stays NON-COMPLIANT/);
    assert.match(row.text, /sbom: — → MISSING/);
    await page.screenshot('template-impact-list');
    await page.press('Escape');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

// The language server in a real editor: an invalid flow template gets its problems where they are,
// and they go away once the text is fixed.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasPage, page } from './support/page.ts';
import { workspaceDir } from './support/paths.ts';
import { waitFor } from '../../support/wait.ts';

/** `source` of the language server's diagnostics. */
const SOURCE = 'compliance-evidence';
const ours = (uri: vscode.Uri) =>
  vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === SOURCE);

describe('diagnostics in the editor', () => {
  it('marks an invalid template and clears the marks when it is fixed', async () => {
    const file = path.join(workspaceDir(), 'broken.flow-template.yml');
    writeFileSync(
      file,
      'version: 1\ntrail:\n  attestations:\n    - name: unit-tests\n    - name: code-scan\n      type: scan\n',
    );
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);

    const found = await waitFor(
      () => {
        const diagnostics = ours(document.uri);
        return diagnostics.length > 0 ? diagnostics : undefined;
      },
      'a diagnostic on the attestation without a type',
      30_000,
    );
    assert.equal(found.length, 1, JSON.stringify(found.map((diagnostic) => diagnostic.message)));
    assert.equal(found[0].severity, vscode.DiagnosticSeverity.Error);
    assert.equal(
      found[0].range.start.line,
      3,
      `on the line of '- name: unit-tests': ${JSON.stringify(found[0].range)}`,
    );
    assert.match(found[0].message, /type/);

    if (hasPage()) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      await waitFor(
        async () => (await page.query('.monaco-editor .squiggly-error')).length > 0,
        'the squiggle in the editor',
      );
      await waitFor(
        async () =>
          (await page.query('.markers-panel .monaco-list-row')).some(
            (row) => row.text.includes('unit-tests') || /type/.test(row.text),
          ),
        'the problem in the Problems panel',
      );
      await vscode.window.showTextDocument(document);
      await page.screenshot('editor-diagnostics');
    }

    const fixed = await editor.edit((edit) => edit.insert(new vscode.Position(4, 0), '      type: junit\n'));
    assert.equal(fixed, true);
    await waitFor(() => ours(document.uri).length === 0, 'the diagnostics to clear', 30_000);
    if (hasPage())
      await waitFor(
        async () => (await page.query('.monaco-editor .squiggly-error')).length === 0,
        'the squiggle to go',
      );
    await document.save();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

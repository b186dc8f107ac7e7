// The Flows view against the local server: what a pipeline reports through the API shows up, with
// its compliance drawn as the right icon, and "Attest Scan Result" records a payload file.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './support/extension.ts';
import { fixtureInWorkspace, fixtureText } from './support/fixtures.ts';
import { call, localApi, multipart } from './support/localApi.ts';
import { hasPage, page } from './support/page.ts';
import { complianceIcon, expandRow, hasIcon, shownRow } from './support/sidebar.ts';

const flow = 'e2e-release';
const trail = 'build-1';

describe('flows view', () => {
  before(function () {
    if (!hasPage()) this.skip();
  });

  it('shows a flow, trail and scan attestation created through the API, with compliance icons', async () => {
    const api = await localApi();
    await call(
      api,
      'PUT',
      `flows/${api.org}/template_file`,
      multipart({
        data_json: JSON.stringify({ name: flow, description: 'Release pipeline' }),
        template_file: { name: 'release.flow-template.yml', text: fixtureText('release.flow-template.yml') },
      }),
    );
    await call(
      api,
      'PUT',
      `trails/${api.org}/${flow}`,
      multipart({ data_json: JSON.stringify({ name: trail, description: 'First build' }) }),
    );
    await call(
      api,
      'POST',
      `attestations/${api.org}/${flow}/trail/${trail}/scan`,
      multipart({ data_json: fixtureText('passing.scan-attestation.json') }),
    );

    await vscode.commands.executeCommand('workbench.view.extension.complianceEvidence');
    await vscode.commands.executeCommand('complianceEvidence.refresh');
    await expandRow(flow, trail);
    const scan = await expandRow(trail, 'code-scan');
    assert.ok(hasIcon(scan, complianceIcon.COMPLIANT), `code-scan drawn as compliant: ${JSON.stringify(scan.icons)}`);
    const missing = await shownRow('unit-tests');
    assert.ok(
      hasIcon(missing, complianceIcon.MISSING),
      `unit-tests drawn as missing: ${JSON.stringify(missing.icons)}`,
    );

    const rows = await (await extensionApi()).children('flows', `flow/${flow}`);
    const trailRow = rows.find((row) => row.label === trail);
    assert.ok(trailRow, `trail ${trail} among ${rows.map((row) => row.label).join(', ')}`);
    const attestations = Object.fromEntries((trailRow.children ?? []).map((row) => [row.label, row.compliance]));
    assert.deepEqual(attestations, { 'code-scan': 'COMPLIANT', 'image-scan': 'MISSING', 'unit-tests': 'MISSING' });
  });

  it('attests a scan payload file through the command and shows the verdict', async () => {
    const file = fixtureInWorkspace('failing.scan-attestation.json');
    const verdict = await vscode.commands.executeCommand<string | undefined>('complianceEvidence.attestScan', {
      flow,
      trail,
      file,
      attachment: false,
    });
    assert.match(verdict ?? '', /^Not compliant\. Trail 'build-1' is NON-COMPLIANT\.$/);
    const row = await shownRow('image-scan', (shown) => hasIcon(shown, complianceIcon['NON-COMPLIANT']));
    assert.ok(row);
    const trailShown = await shownRow(trail, (shown) => hasIcon(shown, complianceIcon['NON-COMPLIANT']));
    assert.ok(trailShown);
    await page.screenshot('sidebar-flows');
  });

  it('pages a long list of trails with "Load more…"', async () => {
    const api = await localApi();
    const paged = 'e2e-paging';
    await call(
      api,
      'PUT',
      `flows/${api.org}/template_file`,
      multipart({
        data_json: JSON.stringify({ name: paged, description: 'Many builds' }),
        template_file: { name: 'release.flow-template.yml', text: fixtureText('release.flow-template.yml') },
      }),
    );
    // One more than a page of the view (20): the first begun is the last shown, on the second page.
    for (let build = 1; build <= 21; build++) {
      await call(
        api,
        'PUT',
        `trails/${api.org}/${paged}`,
        multipart({ data_json: JSON.stringify({ name: `build-${String(build).padStart(2, '0')}` }) }),
      );
    }
    await vscode.commands.executeCommand('complianceEvidence.refresh');
    await expandRow(paged, 'build-21');
    try {
      // The list draws only the rows in sight: go to its end as a user would, with the keyboard.
      await vscode.commands.executeCommand('complianceEvidence.flows.focus');
      await page.press('End');
      await shownRow('Load more…');
      assert.equal(
        (await page.query('#workbench\\.parts\\.sidebar .monaco-list-row')).some(
          (row) => row.label?.trim() === 'build-01',
        ),
        false,
        'the oldest trail waits for the second page',
      );
      await page.click('#workbench\\.parts\\.sidebar .monaco-list-row', { label: 'Load more…' });
      await page.press('End');
      await shownRow('build-01');
    } finally {
      await vscode.commands.executeCommand('workbench.actions.treeView.complianceEvidence.flows.collapseAll');
    }
  });
});

// Detail views (issue 12 item 1, issue 16 item 3): selecting a row opens its view in the editor
// area; what the view shows is checked inside the webview's own frame. Hostile text planted through
// the API in every field a view shows must come out as text, and nothing planted may run: the
// page-level probe `window.pwned` stays unset and no dialog opens.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './support/extension.ts';
import { fixtureText } from './support/fixtures.ts';
import { call, localApi, multipart } from './support/localApi.ts';
import { assertInert, HOSTILE } from './support/hostile.ts';
import { hasPage, page } from './support/page.ts';
import { expandRow, shownRow } from './support/sidebar.ts';
import { waitFor } from '../../support/wait.ts';

const flow = 'e2e-details';
const trail = 'hostile-1';
const ROWS = '#workbench\\.parts\\.sidebar .monaco-list-row';

describe('detail views', () => {
  before(async function () {
    if (!hasPage()) this.skip();
    const api = await localApi();
    await call(
      api,
      'PUT',
      `flows/${api.org}/template_file`,
      multipart({
        data_json: JSON.stringify({ name: flow, description: HOSTILE }),
        template_file: { name: 'release.flow-template.yml', text: fixtureText('release.flow-template.yml') },
      }),
    );
    await call(
      api,
      'PUT',
      `trails/${api.org}/${flow}`,
      multipart({
        data_json: JSON.stringify({
          name: trail,
          description: HOSTILE,
          origin_url: 'javascript:window.pwned=5',
          user_data: { note: HOSTILE },
          // A label may hold neither '=' nor '.' (the API refuses them).
          external_urls: {
            '<script>alert(6)</script>': { href: 'javascript:window.pwned=6' },
            build: { href: 'https://ci.example.test/7' },
          },
        }),
      }),
    );
    const scan = JSON.parse(fixtureText('failing.scan-attestation.json')) as Record<string, unknown>;
    await call(
      api,
      'POST',
      `attestations/${api.org}/${flow}/trail/${trail}/scan`,
      multipart({
        data_json: JSON.stringify({
          ...scan,
          attestation_name: 'code-scan',
          description: HOSTILE,
          annotations: { why: HOSTILE },
          user_data: { note: HOSTILE },
          origin_url: 'javascript:window.pwned=7',
        }),
        attachment_file: { name: 'report.txt', text: `evidence body ${HOSTILE}` },
      }),
    );
    await vscode.commands.executeCommand('workbench.view.extension.complianceEvidence');
    await vscode.commands.executeCommand('complianceEvidence.refresh');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands
      .executeCommand('workbench.actions.treeView.complianceEvidence.flows.collapseAll')
      .then(undefined, () => undefined);
  });

  it('opens a trail from its row: slots with why, hostile fields as text, nothing runs', async () => {
    await expandRow(flow, trail);
    await page.click(ROWS, { label: trail });
    const shown = await waitFor(async () => {
      const view = await page.webview('trail');
      return view.text.includes(`Trail ${trail}`) && view.text.includes('Template slots') ? view : undefined;
    }, 'the trail view with its slots');
    assert.match(shown.text, /code-scan\s+scan\s+NON-COMPLIANT\s+the scan attestation code-scan is non-compliant/);
    assert.match(shown.text, /unit-tests\s+junit\s+MISSING\s+no junit attestation named unit-tests has been reported/);
    assert.ok(shown.text.includes('javascript:window.pwned=5'), 'a javascript: origin shows as text');
    assertInert(shown, 'the trail view');
    assert.ok(
      (await extensionApi())
        .details()
        .some((target) => target.kind === 'trail' && target.flow === flow && target.trail === trail),
      'the trail panel shows the trail',
    );
    await page.screenshot('details-trail');
  });

  it('opens an attestation from its row: its scan table, annotations, evidence that opens in an editor', async () => {
    await shownRow('code-scan');
    await page.click(ROWS, { label: 'code-scan' });
    const shown = await waitFor(async () => {
      const view = await page.webview('attestation');
      return view.text.includes('Attestation code-scan') ? view : undefined;
    }, 'the attestation view');
    assert.match(shown.text, /Quality gate ERROR/);
    assert.match(shown.text, /critical_vulnerabilities\s+ERROR\s+2\s+GREATER_THAN\s+0/);
    assert.match(shown.text, /Annotations/);
    assertInert(shown, 'the attestation view');
    await page.screenshot('details-attestation');

    await page.webviewClick('attestation', 'button', 'Open evidence');
    const tab = await waitFor(
      () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((entry) => entry.label === 'report.txt'),
      'the evidence file in an editor',
    );
    const input = tab.input as { uri?: vscode.Uri };
    assert.ok(input.uri, 'a file editor');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(input.uri));
    assert.equal(text, `evidence body ${HOSTILE}`);
  });

  it('says why a missing attestation is missing', async () => {
    await page.click(ROWS, { label: 'unit-tests' });
    const shown = await waitFor(async () => {
      const view = await page.webview('attestation');
      return view.text.includes('Attestation unit-tests') ? view : undefined;
    }, 'the missing attestation view');
    assert.match(shown.text, /MISSING/);
    assert.match(shown.text, /no junit attestation named unit-tests has been reported/);
  });

  it('follows a link with the keyboard: Enter on the trail link of an attestation opens the trail', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // unit-tests is selected now: selecting code-scan again changes the selection and opens it.
    await page.click(ROWS, { label: 'code-scan' });
    await page.webview('attestation');
    await page.webviewPress('attestation', 'button.link', trail, 'Enter');
    await waitFor(async () => (await page.webview('trail')).text.includes(`Trail ${trail}`), 'the trail view');
    assert.ok((await extensionApi()).details().some((target) => target.kind === 'trail' && target.trail === trail));
  });

  it('pages a long list: the events of a trail with many attestations, 25 at a time', async () => {
    const api = await localApi();
    const long = 'long-1';
    await call(api, 'PUT', `trails/${api.org}/${flow}`, multipart({ data_json: JSON.stringify({ name: long }) }));
    for (let index = 1; index <= 26; index++) {
      await call(
        api,
        'POST',
        `attestations/${api.org}/${flow}/trail/${long}/generic`,
        multipart({ data_json: JSON.stringify({ attestation_name: `check-${index}`, is_compliant: true }) }),
      );
    }
    await vscode.commands.executeCommand('complianceEvidence.showDetails', { kind: 'trail', flow, trail: long });
    const first = await waitFor(async () => {
      const view = await page.webview('trail');
      return /Rows 1–25 of (\d+) \(page 1 of 2\)/.exec(view.text) ? view : undefined;
    }, 'the first page of events');
    const total = Number(/Rows 1–25 of (\d+)/.exec(first.text)![1]);
    await page.webviewClick('trail', 'button', 'Next page');
    await waitFor(
      async () => (await page.webview('trail')).text.includes(`Rows 26–${total} of ${total} (page 2 of 2)`),
      'the second page of events',
    );
  });

  it('shows a failure as text with Retry, never a blank view', async () => {
    await vscode.commands.executeCommand('complianceEvidence.showDetails', {
      kind: 'trail',
      flow,
      trail: 'no-such-trail',
    });
    const shown = await waitFor(async () => {
      const view = await page.webview('trail');
      return view.text.includes('Could not load this view') ? view : undefined;
    }, 'the failure text');
    assert.match(shown.text, /no-such-trail/);
    assert.ok(shown.elements.some((element) => element.text === 'Retry'));
    await page.screenshot('details-error');
  });
});

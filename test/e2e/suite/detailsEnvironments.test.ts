// Detail views of what runs: an environment (chart, attached policy, audit log), a snapshot with
// the rule that failed, two snapshots compared from a snapshot row's menu, and an artifact: each
// opened from its row, checked inside its webview, with hostile text planted through the API.
// Fingerprints and images of their own: the search test expects one hit for the cluster's.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './support/extension.ts';
import { assertInert, HOSTILE } from './support/hostile.ts';
import { call, localApi, multipart } from './support/localApi.ts';
import { hasPage, page } from './support/page.ts';
import { expandRow, shownRow } from './support/sidebar.ts';
import { waitFor } from '../../support/wait.ts';

const flow = 'e2e-details';
const trail = 'hostile-1';
const environment = 'e2e-details-env';
const ROWS = '#workbench\\.parts\\.sidebar .monaco-list-row';
const API = { fingerprint: 'd'.repeat(64), image: 'registry.example.org/details-api:1.2' };
const WORKER = { fingerprint: 'e'.repeat(64), image: 'registry.example.org/details-worker:3.0' };
const EVIL = { fingerprint: 'c'.repeat(64), image: 'registry.example.org/<script>window.pwned=8</script>:1' };

function pod(name: string, image: { fingerprint: string; image: string }) {
  return {
    podName: name,
    namespace: 'prod',
    creationTimestamp: 1_767_225_600,
    digests: { [image.image]: image.fingerprint },
  };
}

describe('detail views of environments', () => {
  before(async function () {
    if (!hasPage()) this.skip();
    const api = await localApi();
    // The API artifact is attested in the details flow (so it has provenance); the others are not.
    await call(api, 'POST', `artifacts/${api.org}/${flow}`, {
      fingerprint: API.fingerprint,
      filename: API.image,
      git_commit: '1'.repeat(40),
      git_commit_info: {
        sha1: '1'.repeat(40),
        message: HOSTILE,
        author: HOSTILE,
        branch: 'main',
        timestamp: 1_767_225_000,
      },
      build_url: 'javascript:window.pwned=9',
      commit_url: 'https://git.example.test/commit/1',
      repo_url: 'https://git.example.test/repo',
      template_reference_name: 'api',
      trail_name: trail,
    });
    const policy = [
      '_schema: https://policies.example.test/policy/environment/v1',
      'artifacts:',
      '  provenance:',
      '    required: true',
      '',
    ].join('\n');
    await call(
      api,
      'PUT',
      `policies/${api.org}`,
      multipart({
        payload: JSON.stringify({ name: 'needs-provenance', description: HOSTILE, comment: '', type: 'env' }),
        policy_file: { name: 'needs-provenance.yml', text: policy },
      }),
    );
    await call(api, 'PUT', `environments/${api.org}`, {
      name: environment,
      type: 'K8S',
      description: HOSTILE,
      policies: ['needs-provenance'],
    });
    await call(api, 'PUT', `environments/${api.org}/${environment}/report/K8S`, {
      artifacts: [pod('api-1', API), pod('worker-1', WORKER)],
    });
    await call(api, 'PUT', `environments/${api.org}/${environment}/report/K8S`, {
      artifacts: [pod('api-1', API), pod('api-2', API), pod(`evil-${'x'.repeat(8)}`, EVIL)],
    });
    await vscode.commands.executeCommand('workbench.view.extension.complianceEvidence');
    await vscode.commands
      .executeCommand('workbench.actions.treeView.complianceEvidence.environments.collapseAll')
      .then(undefined, () => undefined);
    await vscode.commands.executeCommand('complianceEvidence.refresh');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands
      .executeCommand('workbench.actions.treeView.complianceEvidence.environments.collapseAll')
      .then(undefined, () => undefined);
  });

  it('opens an environment from its row: chart, attached policy, audit log', async () => {
    await shownRow(environment);
    await page.click(ROWS, { label: environment });
    const shown = await waitFor(async () => {
      const view = await page.webview('environment', 'svg.compliance-chart g.snapshot');
      return view.text.includes(`Environment ${environment}`) && view.elements.length === 2 ? view : undefined;
    }, 'the environment view with its chart');
    assert.match(shown.text, /needs-provenance/);
    assert.match(shown.text, /Audit log/);
    assert.match(shown.text, /started/);
    assert.ok(shown.text.includes(EVIL.image), 'an image name with markup shows as text in the audit log');
    assertInert(shown, 'the environment view');
    await page.screenshot('details-environment');
    await page.webviewReveal('environment', 'h2', 'Attached policies');
    await page.screenshot('details-environment-policies-audit');
  });

  it('opens a snapshot from its row: what runs, and the rule that failed', async () => {
    await expandRow(environment, '#2');
    await page.click(ROWS, { label: '#2' });
    const shown = await waitFor(async () => {
      const view = await page.webview('snapshot');
      return view.text.includes(`Snapshot ${environment}#2`) ? view : undefined;
    }, 'the snapshot view');
    assert.ok(shown.text.includes(API.image), 'the attested artifact runs');
    assert.match(shown.text, /needs-provenance v1, provenance: /);
    assert.match(shown.text, /Exited/);
    assert.ok(shown.text.includes(WORKER.image), 'the worker exited');
    assertInert(shown, 'the snapshot view', ['<script>window.pwned=8</script>']);
    await page.screenshot('details-snapshot');
  });

  it('compares two snapshots from a snapshot row, picking the other one', async () => {
    const rows = await (await extensionApi()).children('environments', `env/${environment}`);
    const second = rows.find((row) => row.label === '#2');
    assert.ok(second, `#2 among ${rows.map((row) => row.label).join(', ')}`);
    const compared = vscode.commands.executeCommand('complianceEvidence.compareSnapshots', second);
    await page.fillQuickInput('#1');
    assert.deepEqual(await compared, { kind: 'compare', environment, from: 1, to: 2 });
    const shown = await waitFor(async () => {
      const view = await page.webview('compare');
      return view.text.includes(`${environment}#1 ↔ ${environment}#2`) ? view : undefined;
    }, 'the comparison');
    assert.match(shown.text, /1 started, 1 exited, 1 changed/);
    assertInert(shown, 'the comparison', ['<script>window.pwned=8</script>']);
    await page.screenshot('details-compare');
  });

  it('opens an artifact from its row: where it runs, its provenance', async () => {
    await expandRow('#2', API.image);
    await page.click(ROWS, { label: API.image });
    const shown = await waitFor(async () => {
      const view = await page.webview('artifact');
      return view.text.includes(`Artifact ${API.image}`) ? view : undefined;
    }, 'the artifact view');
    // Runs now, since the snapshot it started running in (#1).
    assert.match(shown.text, new RegExp(`Runs now[\\s\\S]*${environment}\\s+${environment}#1[\\s\\S]*Ran before`));
    assert.match(shown.text, new RegExp(`Trail\\s+${trail}`));
    assert.ok(shown.text.includes('javascript:window.pwned=9'), 'a javascript: build URL shows as text');
    assertInert(shown, 'the artifact view');
    await page.screenshot('details-artifact');
  });

  it('follows a link between views: the artifact view opens the snapshot it started running in', async () => {
    await page.webviewClick('artifact', 'button.link', `${environment}#1`);
    await waitFor(
      async () => (await page.webview('snapshot')).text.includes(`Snapshot ${environment}#1`),
      'the snapshot view',
    );
  });

  it('opened no dialog anywhere', async () => {
    assert.deepEqual(await page.dialogs(), []);
  });
});

import assert from 'node:assert/strict';
import type { Trail } from '../../../shared/apiClient/types.ts';
import { artifactUrl, flowNodes, trailNode, trailPageNodes } from '../../../client/tree/flowModel.ts';
import type { TreeNode } from '../../../client/tree/nodes.ts';
import { loadedAncestorId } from '../../../client/tree/rowIds.ts';

const fp = 'a'.repeat(64);

// A trail as the server renders it (reference §3.4): template with a trail attestation `jira`
// and an artifact `backend` expecting `unit-test` and `quality`; `quality` reported non-compliant.
const trail: Trail = {
  name: 'build-42',
  compliance_state: 'NON-COMPLIANT',
  is_compliant: false,
  html_url: 'http://127.0.0.1:8001/acme/flows/shop/trails/build-42',
  git_commit_info: { sha1: 'b'.repeat(40), message: 'Fix checkout' },
  template: {
    version: 1,
    trail: {
      attestations: [{ name: 'jira', type: 'jira' }],
      artifacts: [
        {
          name: 'backend',
          attestations: [
            { name: 'unit-test', type: 'junit' },
            { name: 'quality', type: 'scan' },
          ],
        },
        { name: 'frontend', attestations: [{ name: 'pr', type: 'pull_request' }] },
      ],
    },
  },
  compliance_status: {
    status: 'NON-COMPLIANT',
    attestations_statuses: [
      {
        attestation_name: 'risk',
        attestation_type: 'generic',
        attestation_id: 'id-risk',
        status: 'COMPLETE',
        is_compliant: true,
        unexpected: true,
      },
    ],
    artifacts_statuses: {
      backend: {
        artifact_fingerprint: fp,
        artifact_id: 'art-1',
        status: 'NON-COMPLIANT',
        is_compliant: false,
        attestations_statuses: [
          {
            attestation_name: 'quality',
            attestation_type: 'scan',
            attestation_id: 'id-q',
            status: 'COMPLETE',
            is_compliant: false,
          },
        ],
      },
    },
  },
};

function byLabel(nodes: TreeNode[] | undefined, label: string): TreeNode {
  const node = nodes?.find((candidate) => candidate.label === label);
  assert.ok(node, `no row '${label}' among ${nodes?.map((n) => n.label).join(', ')}`);
  return node;
}

describe('flows tree model', () => {
  it('lists flows by name with their latest state as compliance', () => {
    const nodes = flowNodes([
      { name: 'web', latest_state: 'COMPLIANT', html_url: 'http://h/acme/flows/web' },
      { name: 'api', description: 'The API', latest_state: null },
    ]);
    assert.deepEqual(
      nodes.map((n) => [n.label, n.compliance, n.description]),
      [
        ['api', undefined, 'The API'],
        ['web', 'COMPLIANT', undefined],
      ],
    );
    assert.deepEqual(nodes[1].capabilities, ['flow', 'beginTrail', 'openInBrowser']);
    assert.deepEqual(nodes[0].capabilities, ['flow', 'beginTrail'], 'no page, no Open in Browser');
  });

  it('shows the trail compliance, the short commit, and the template slots left unreported as MISSING', () => {
    const node = trailNode('shop', trail);
    assert.equal(node.id, 'flow/shop/trail/build-42');
    assert.equal(node.compliance, 'NON-COMPLIANT');
    assert.equal(node.description, 'NON-COMPLIANT · bbbbbbb');
    assert.match(node.tooltip ?? '', /Fix checkout/);

    const jira = byLabel(node.children, 'jira');
    assert.equal(jira.compliance, 'MISSING');
    assert.deepEqual(jira.capabilities, ['attestation', 'missing']);
    const risk = byLabel(node.children, 'risk');
    assert.equal(risk.compliance, 'COMPLIANT');
    assert.match(risk.description ?? '', /unexpected/);
    assert.equal(risk.htmlUrl, `${trail.html_url}?attestation_id=id-risk`);

    const backend = byLabel(node.children, 'backend');
    assert.equal(backend.compliance, 'NON-COMPLIANT');
    assert.equal(backend.ref.fingerprint, fp);
    assert.equal(backend.htmlUrl, `http://127.0.0.1:8001/acme/flows/shop/artifacts/${fp}?artifact_id=art-1`);
    assert.deepEqual(
      backend.children?.map((n) => [n.label, n.compliance]),
      [
        ['quality', 'NON-COMPLIANT'],
        ['unit-test', 'MISSING'],
      ],
    );

    const frontend = byLabel(node.children, 'frontend');
    assert.equal(frontend.compliance, 'MISSING');
    assert.equal(frontend.htmlUrl, undefined);
    assert.deepEqual(
      frontend.children?.map((n) => [n.label, n.compliance]),
      [['pr', 'MISSING']],
    );
  });

  it('says so when a trail has nothing and no template', () => {
    const node = trailNode('shop', { name: 'empty', compliance_state: 'COMPLIANT' });
    assert.deepEqual(
      node.children?.map((n) => n.kind),
      ['message'],
    );
    assert.equal(node.compliance, 'COMPLIANT');
  });

  it('pages trails with a "Load more…" row while pages remain', () => {
    const first = trailPageNodes('shop', {
      data: [trail],
      pagination: { total: 41, page: 1, per_page: 20, page_count: 3 },
    });
    const more = first.at(-1)!;
    assert.equal(more.kind, 'loadMore');
    assert.equal(more.label, 'Load more…');
    assert.deepEqual(more.ref, { flow: 'shop', nextPage: 2 });
    const last = trailPageNodes('shop', {
      data: [trail],
      pagination: { total: 41, page: 3, per_page: 20, page_count: 3 },
    });
    assert.ok(!last.some((n) => n.kind === 'loadMore'));
    const none = trailPageNodes('shop', { data: [], pagination: { total: 0, page: 1, per_page: 20, page_count: 0 } });
    assert.deepEqual(
      none.map((n) => [n.kind, n.label]),
      [['message', 'No trails yet']],
    );
  });

  it('derives artifact pages only from trail pages it recognises', () => {
    assert.equal(artifactUrl('http://h/o/flows/f/trails/t', fp, undefined), `http://h/o/flows/f/artifacts/${fp}`);
    assert.equal(artifactUrl('http://h/elsewhere', fp, 'x'), undefined);
  });
});

describe('targeted refresh of rows never loaded', () => {
  it('falls back to the nearest loaded ancestor by id path', () => {
    const loaded = new Set(['flow/shop']);
    assert.equal(
      loadedAncestorId('flow/shop/trail/build-1', (id) => loaded.has(id)),
      'flow/shop',
    );
    assert.equal(
      loadedAncestorId('flow/shop/trail/build-1/artifact/x', (id) => loaded.has(id)),
      'flow/shop',
    );
    assert.equal(
      loadedAncestorId('flow/other/trail/t', (id) => loaded.has(id)),
      undefined,
    );
  });
});

import assert from 'node:assert/strict';
import { environmentNodes, snapshotArtifactNodes, snapshotPageNodes } from '../../../client/tree/environmentModel.ts';

const fp1 = '1'.repeat(64);
const fp2 = '2'.repeat(64);

describe('environments tree model', () => {
  it('lists environments with type and compliance in the shared words; only K8S ones offer a K8S report', () => {
    const nodes = environmentNodes([
      {
        name: 'prod',
        type: 'K8S',
        state: false,
        policies: ['rules'],
        snapshot_count: 2,
        html_url: 'http://h/acme/environments/prod',
      },
      { name: 'lambda-eu', type: 'lambda', state: null, policies: [], snapshot_count: 4 },
      { name: 'new', type: 'server', state: null, policies: ['rules'], snapshot_count: 0 },
    ]);
    assert.deepEqual(
      nodes.map((n) => [n.label, n.description, n.compliance]),
      [
        ['lambda-eu', 'lambda · NO POLICY', 'NO POLICY'],
        ['new', 'server · NOT REPORTED', 'NOT REPORTED'],
        ['prod', 'K8S · NON-COMPLIANT', 'NON-COMPLIANT'],
      ],
    );
    assert.match(nodes[0].tooltip ?? '', /No policy is attached/);
    nodes.splice(1, 1);
    assert.deepEqual(nodes[1].capabilities, ['environment', 'auditLog', 'reportK8s', 'openInBrowser']);
    assert.ok(!nodes[0].capabilities.includes('reportK8s'));
  });

  it('shows snapshots newest first, marks the current one, and pages when a page is full', () => {
    const items = [
      { index: 1, from: 1700000000, to: 1700000100, compliant: true },
      { index: 2, from: 1700000100, to: 0, compliant: false },
    ];
    const nodes = snapshotPageNodes('prod', 'http://h/acme/environments/prod', items, 1, 2);
    assert.deepEqual(
      nodes.map((n) => n.label),
      ['#2', '#1', 'Load more…'],
    );
    assert.match(nodes[0].description ?? '', /^current · 2023-11-14/);
    assert.equal(nodes[0].compliance, 'NON-COMPLIANT');
    assert.equal(nodes[0].htmlUrl, 'http://h/acme/environments/prod/snapshots/2');
    assert.deepEqual(nodes[2].ref, {
      environment: 'prod',
      nextPage: 2,
      parentUrl: 'http://h/acme/environments/prod',
      judged: true,
    });
    assert.deepEqual(
      snapshotPageNodes('prod', undefined, items, 1, 15).map((n) => n.kind),
      ['snapshot', 'snapshot'],
    );
    assert.deepEqual(
      snapshotPageNodes('prod', undefined, [], 1, 15).map((n) => n.label),
      ['No snapshots yet'],
    );
  });

  it('says NO POLICY, not NON-COMPLIANT, of snapshots where no policy is attached', () => {
    const [environment] = environmentNodes([{ name: 'dev', type: 'K8S', state: null }]);
    assert.equal(environment.ref.judged, false);
    const [snapshot] = snapshotPageNodes(
      'dev',
      undefined,
      [{ index: 1, from: 1700000000, to: 0, compliant: false }],
      1,
      15,
      false,
    );
    assert.equal(snapshot.compliance, 'NO POLICY');
    assert.match(snapshot.tooltip ?? '', /NO POLICY/);
    assert.doesNotMatch(snapshot.tooltip ?? '', /NON/);
  });

  it('annotates snapshot artifacts with started/exited, instance counts and provenance', () => {
    const nodes = snapshotArtifactNodes('prod', {
      index: 3,
      applied_policies: [{ id: 'p', name: 'rules', version: 1, policy_dump: {}, failing_artifacts: [] }],
      artifacts: [
        {
          name: 'registry/app:1',
          fingerprint: fp1,
          compliant: true,
          annotation: { type: 'started', was: 0, now: 2 },
          flows: [{ flow_name: 'shop', trail_name: 'build-42' }],
        },
        {
          name: 'registry/old:0',
          fingerprint: fp2,
          compliant: false,
          flow_name: '',
          annotation: { type: 'exited', was: 1, now: 0 },
          reasons_for_incompliance: ['no provenance'],
        },
      ],
    });
    assert.deepEqual(
      nodes.map((n) => [n.label, n.description, n.compliance]),
      [
        ['registry/app:1', 'started · 2× · shop/build-42', 'COMPLIANT'],
        ['registry/old:0', 'exited · no provenance', undefined],
      ],
    );
    assert.equal(nodes[1].icon, 'debug-stop');
    assert.ok(nodes[0].capabilities.includes('started'));
    assert.match(nodes[1].tooltip ?? '', /instances 1 → 0/);
    assert.deepEqual(
      snapshotArtifactNodes('prod', { index: 1, artifacts: [] }).map((n) => n.label),
      ['Nothing running'],
    );
  });
});

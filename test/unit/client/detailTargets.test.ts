// Which detail view each sidebar row opens (what selecting it shows).
import assert from 'node:assert/strict';
import { targetOfArgument, targetOfNode } from '../../../client/details/targets.ts';
import { environmentNode, snapshotArtifactNodes, snapshotPageNodes } from '../../../client/tree/environmentModel.ts';
import { trailNode } from '../../../client/tree/flowModel.ts';
import { loadMoreNode, messageNode } from '../../../client/tree/nodes.ts';

describe('detail view of a row', () => {
  const trail = trailNode('shop', {
    name: 'build-1',
    compliance_status: {
      attestations_statuses: [
        {
          attestation_name: 'scan',
          attestation_type: 'scan',
          attestation_id: 'id-1',
          is_compliant: true,
          status: 'COMPLETE',
        },
      ],
      artifacts_statuses: {
        app: { artifact_fingerprint: 'f'.repeat(64), status: 'COMPLIANT', attestations_statuses: [] },
      },
    },
    template: { trail: { attestations: [{ name: 'tests', type: 'junit' }] } },
  });

  it('opens trails, attestations (by id, or by name when missing) and artifacts of the Flows view', () => {
    assert.deepEqual(targetOfNode(trail), { kind: 'trail', flow: 'shop', trail: 'build-1' });
    const byLabel = Object.fromEntries((trail.children ?? []).map((child) => [child.label, targetOfNode(child)]));
    assert.deepEqual(byLabel, {
      scan: { kind: 'attestation', flow: 'shop', trail: 'build-1', attestationId: 'id-1' },
      tests: { kind: 'attestation', flow: 'shop', trail: 'build-1', name: 'tests' },
      app: { kind: 'artifact', flow: 'shop', fingerprint: 'f'.repeat(64), trail: 'build-1' },
    });
  });

  it('opens environments, snapshots and attested artifacts of the Environments view', () => {
    assert.deepEqual(targetOfNode(environmentNode({ name: 'prod', type: 'K8S' })), {
      kind: 'environment',
      environment: 'prod',
    });
    const [snapshot] = snapshotPageNodes('prod', undefined, [{ index: 3, from: 1, to: 0, compliant: true }], 1, 15);
    assert.deepEqual(targetOfNode(snapshot), { kind: 'snapshot', environment: 'prod', index: 3 });
    const artifacts = snapshotArtifactNodes('prod', {
      index: 3,
      artifacts: [
        { name: 'attested', fingerprint: 'a'.repeat(64), flows: [{ flow_name: 'shop', trail_name: 'build-1' }] },
        { name: 'unknown', fingerprint: 'b'.repeat(64), flow_name: '' },
      ],
    });
    assert.deepEqual(artifacts.map(targetOfNode), [
      { kind: 'artifact', flow: 'shop', fingerprint: 'a'.repeat(64) },
      undefined,
    ]);
  });

  it('opens nothing for message and "Load more…" rows, and takes a target from a script only when it is valid', () => {
    assert.equal(targetOfNode(messageNode('flow/shop', 'No trails yet')), undefined);
    assert.equal(targetOfNode(loadMoreNode('flow/shop', { flow: 'shop', nextPage: 2 })), undefined);
    assert.deepEqual(targetOfArgument({ kind: 'snapshot', environment: 'prod', index: 2 }), {
      kind: 'snapshot',
      environment: 'prod',
      index: 2,
    });
    assert.equal(targetOfArgument({ kind: 'snapshot', environment: 'prod', index: '2' }), undefined);
  });
});

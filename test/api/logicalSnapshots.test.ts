// Combined snapshots of logical environments: a logical environment's snapshot is what runs now in
// all the physical environments it includes, judged under its own policies, recorded by the same
// snapshot rules as a report (so only when that changes).
import assert from 'node:assert/strict';
import type { EnvironmentEvent, Snapshot, SnapshotSummary } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const SHARED = 'd'.repeat(64);

function k8s(pods: Array<[pod: string, digest: string]>) {
  return {
    artifacts: pods.map(([podName, digest]) => ({
      podName,
      namespace: 'prod',
      creationTimestamp: 1700000000,
      digests: { [`reg/app-${digest[0]}:1`]: digest },
      owners: [],
    })),
  };
}

describe('logical environments: combined snapshots', () => {
  let server: TestServer;
  const report = (env: string, pods: Array<[string, string]>) =>
    server.json('PUT', `/api/v2/environments/default/${env}/report/K8S`, k8s(pods));
  const fingerprintsOf = (snapshot: Snapshot) =>
    snapshot.artifacts
      .filter((artifact) => (artifact.annotation?.now ?? 0) > 0)
      .map((artifact) => artifact.fingerprint)
      .sort();

  before(async () => {
    server = await startServer();
    for (const name of ['east', 'west'])
      assert.equal(
        (await server.json('PUT', '/api/v2/environments/default', { name, type: 'K8S', description: name })).status,
        201,
      );
    const logical = await server.json('PUT', '/api/v2/environments/default', {
      name: 'everywhere',
      type: 'logical',
      description: 'both clusters',
      included_environments: ['east'],
    });
    assert.equal(logical.status, 201, logical.text);
  });
  after(async () => {
    await server?.stop();
  });

  it('follows what runs in each included environment, one artifact once however many run it', async () => {
    assert.equal(
      (
        await report('east', [
          ['e-0', A],
          ['e-1', SHARED],
        ])
      ).status,
      200,
    );
    let combined = (await server.get<Snapshot>('/api/v2/snapshots/default/everywhere/-1')).body;
    assert.deepEqual(fingerprintsOf(combined), [A, SHARED].sort());

    assert.equal(
      (await server.json('PUT', '/api/v2/environments/default/everywhere/join', { physical_env_name: 'west' })).status,
      200,
    );
    assert.equal(
      (
        await report('west', [
          ['w-0', B],
          ['w-1', SHARED],
        ])
      ).status,
      200,
    );
    combined = (await server.get<Snapshot>('/api/v2/snapshots/default/everywhere/-1')).body;
    assert.deepEqual(fingerprintsOf(combined), [A, B, SHARED].sort());
    const shared = combined.artifacts.find((artifact) => artifact.fingerprint === SHARED);
    assert.equal(
      shared?.annotation?.now,
      2,
      'the artifact running in both clusters is one artifact with two instances',
    );
    assert.deepEqual(Object.keys(shared?.pods ?? {}).sort(), ['east/e-1', 'west/w-1']);

    const count = (await server.get<SnapshotSummary[]>('/api/v2/snapshots/default/everywhere')).body.length;
    assert.equal(
      (
        await report('west', [
          ['w-0', B],
          ['w-1', SHARED],
        ])
      ).status,
      200,
    );
    assert.equal(
      (await server.get<SnapshotSummary[]>('/api/v2/snapshots/default/everywhere')).body.length,
      count,
      'nothing changed: no new combined snapshot',
    );

    assert.equal((await report('east', [['e-1', SHARED]])).status, 200);
    combined = (await server.get<Snapshot>('/api/v2/snapshots/default/everywhere/-1')).body;
    assert.deepEqual(fingerprintsOf(combined), [B, SHARED].sort());
    const events = (await server.get<EnvironmentEvent[]>('/api/v2/environments/default/everywhere/events')).body;
    assert.ok(
      events.some((event) => event.type === 'exited' && event.sha256 === A),
      'A exited the logical environment',
    );
  });

  it('still refuses a report to the logical environment itself', async () => {
    assert.equal((await report('everywhere', [['x', A]])).status, 400);
  });
});

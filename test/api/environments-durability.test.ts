// Environments, snapshots, policies, controls and actions survive a restart on the same data
// directory; concurrent creates of one environment or control leave exactly one, with no 5xx.
import assert from 'node:assert/strict';
import type { Action, Control, Environment, EnvironmentEvent, Policy, Snapshot, SnapshotSummary } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

const fp = (c: string): string => c.repeat(64);

describe('environment resources across restarts and under concurrency', () => {
  let server: TestServer | undefined;
  after(async () => {
    await server?.stop();
  });

  it('finds everything again after a restart', async () => {
    const first = await startServer({ args: ['--org', 'acme'] });
    await first.json('PUT', '/api/v2/environments/acme', { name: 'prod', type: 'server', description: 'p' });
    await first.json('PUT', '/api/v2/environments/acme/prod/report/server', {
      artifacts: [{ digests: { app: fp('a') }, creationTimestamp: 1 }],
    });
    const yaml =
      '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n  provenance:\n    required: true\n';
    await first.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'prov' }),
      policy_file: yaml,
    });
    await first.json('POST', '/api/v2/environments/acme/prod/policies', { policy_names: ['prov'] });
    await first.json('POST', '/api/v2/controls/acme', { identifier: 'ctl', name: 'Control' });
    await first.json('PUT', '/api/v2/actions/acme/environments', {
      name: 'hook',
      targets: [{ type: 'EMAIL', emails: ['a@example.test'] }],
      environments: ['prod'],
      triggers: ['ON_STARTED_ARTIFACT'],
    });
    assert.equal(await first.stop({ keepData: true }), 0);

    server = await startServer({ args: ['--org', 'acme'], dataDir: first.dataDir });
    const env = (await server.get<Environment>('/api/v2/environments/acme/prod')).body;
    assert.deepEqual(env.policies, ['prov']);
    assert.equal(env.state, false);
    const snapshots = (await server.get<SnapshotSummary[]>('/api/v2/snapshots/acme/prod')).body;
    assert.deepEqual(
      snapshots.map((s) => s.index),
      [2, 1],
    );
    assert.equal((await server.get<Snapshot>('/api/v2/snapshots/acme/prod/-1')).body.artifacts[0].fingerprint, fp('a'));
    assert.equal((await server.get<EnvironmentEvent[]>('/api/v2/environments/acme/prod/events')).body.length, 2);
    assert.equal((await server.get<Policy>('/api/v2/policies/acme/prov')).body.versions.length, 1);
    assert.equal((await server.get<Control>('/api/v2/controls/acme/ctl')).body.name, 'Control');
    assert.equal((await server.get<Action>('/api/v2/actions/acme/1')).body.name, 'hook');
    // A report after the restart continues the numbering and diffs against the stored snapshot.
    await server.json('PUT', '/api/v2/environments/acme/prod/report/server', {
      artifacts: [{ digests: { app: fp('a') }, creationTimestamp: 9 }],
    });
    assert.equal(
      (await server.get<SnapshotSummary[]>('/api/v2/snapshots/acme/prod')).body.length,
      2,
      'unchanged after restart: no snapshot',
    );
  });

  it('leaves exactly one of 20 concurrent creates, with no 5xx', async () => {
    server ??= await startServer({ args: ['--org', 'acme'] });
    const environments = await Promise.all(
      Array.from({ length: 20 }, () =>
        server!.json('PUT', '/api/v2/environments/acme', { name: 'racy', type: 'K8S', description: 'r' }),
      ),
    );
    assert.ok(
      environments.every((reply) => reply.status < 500),
      environments.map((r) => r.status).join(','),
    );
    assert.equal(environments.filter((reply) => reply.status === 201).length, 1);
    assert.equal((await server.get<Environment[]>('/api/v2/environments/acme?name=racy')).body.length, 1);
    const controls = await Promise.all(
      Array.from({ length: 20 }, () =>
        server!.json('POST', '/api/v2/controls/acme', { identifier: 'racy', name: 'r' }),
      ),
    );
    assert.deepEqual(
      controls.map((reply) => reply.status).sort(),
      [201, ...Array.from({ length: 19 }, () => 409)],
      'one created, the others told it already exists',
    );
    const reports = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server!.json('PUT', '/api/v2/environments/acme/racy/report/K8S', {
          artifacts: [
            {
              podName: `p${i % 2}`,
              namespace: 'n',
              creationTimestamp: 1,
              digests: { img: fp(i % 2 === 0 ? 'c' : 'd') },
            },
          ],
        }),
      ),
    );
    assert.ok(reports.every((reply) => reply.status === 200));
    const indexes = (await server.get<SnapshotSummary[]>('/api/v2/snapshots/acme/racy?reverse=true')).body.map(
      (s) => s.index,
    );
    assert.deepEqual(
      indexes,
      Array.from({ length: indexes.length }, (_, i) => i + 1),
      'consecutive indexes',
    );
  });
});

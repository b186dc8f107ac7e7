// Archiving and unarchiving a policy: it leaves lists and evaluation and frees its name (reference
// §1.7's archiving rule), the environments that used it are judged again at once, and the last
// policy archived under a name comes back on unarchive.
import assert from 'node:assert/strict';
import type { Environment, Policy, Snapshot } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { createEnvironment } from './fixtures.ts';

const STRICT =
  '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n  provenance:\n    required: true\n';
const FINGERPRINT = 'c'.repeat(64);

describe('policy archive and unarchive', () => {
  let server: TestServer;
  const putPolicy = (name: string) =>
    server.multipart('PUT', '/api/v2/policies/default', {
      payload: JSON.stringify({ name, description: 'provenance', type: 'env' }),
      policy_file: { filename: 'p.yml', content: STRICT },
    });
  const latest = async () => (await server.get<Snapshot>('/api/v2/snapshots/default/prod/-1')).body;

  before(async () => {
    server = await startServer();
    await createEnvironment(server, 'default', 'prod');
    assert.equal((await putPolicy('strict')).status, 201);
    assert.equal(
      (await server.json('POST', '/api/v2/environments/default/prod/policies', { policy_names: ['strict'] })).status,
      200,
    );
    const report = {
      artifacts: [
        {
          podName: 'p',
          namespace: 'prod',
          creationTimestamp: 1700000000,
          digests: { 'reg/app:1': FINGERPRINT },
          owners: [],
        },
      ],
    };
    assert.equal((await server.json('PUT', '/api/v2/environments/default/prod/report/K8S', report)).status, 200);
  });
  after(async () => {
    await server?.stop();
  });

  it('archives: gone from lists, gets and evaluation, the environment judged again, the name free', async () => {
    const before = await latest();
    assert.equal(before.compliant, false);
    assert.equal((await server.json('PUT', '/api/v2/policies/default/strict/archive', null)).status, 200);
    assert.deepEqual((await server.get('/api/v2/policies/default')).body, []);
    assert.deepEqual((await server.get('/api/v2/policies/default/strict')).body, {
      message: "Policy 'strict' does not exist in organization 'default'",
    });
    const after = await latest();
    assert.equal(after.index, before.index + 1);
    assert.deepEqual(after.applied_policies, []);
    assert.equal((await server.get<Environment>('/api/v2/environments/default/prod')).body.policies.length, 0);
    assert.deepEqual((await server.json('PUT', '/api/v2/policies/default/strict/archive', null)).body, {
      message: "Policy 'strict' does not exist in organization 'default'",
    });
  });

  it('unarchives the last archived policy of the name, with its history, and refuses while a live one has the name', async () => {
    assert.equal((await putPolicy('strict')).status, 201, 'the archived name is free for a new policy');
    const taken = await server.json('PUT', '/api/v2/policies/default/strict/unarchive', null);
    assert.equal(taken.status, 409);
    assert.equal((await server.json('PUT', '/api/v2/policies/default/strict/archive', null)).status, 200);
    assert.equal((await server.json('PUT', '/api/v2/policies/default/strict/unarchive', null)).status, 200);
    const back = (await server.get<Policy>('/api/v2/policies/default/strict')).body;
    assert.equal(back.archived, false);
    assert.deepEqual(
      back.events.map((event: { type: string }) => event.type),
      ['policy_created', 'policy_archived', 'policy_unarchived'],
    );
    assert.deepEqual((await server.json('PUT', '/api/v2/policies/default/nope/unarchive', null)).body, {
      message: "Policy 'nope' does not exist in organization 'default'",
    });
  });
});

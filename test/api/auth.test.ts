// Roles and access (spec §Authentication, reference §1.10) and service accounts with their keys (§2.16).
import assert from 'node:assert/strict';
import type { ApiKey, Attestation, IssuedApiKey, ServiceAccount } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { beginTrail, createFlow } from './fixtures.ts';

const FORBIDDEN = { message: "You don't have permission to access this resource" };

describe('auth: roles, orgs, service accounts and keys', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({
      config: [
        'orgs: [{name: acme}, {name: other}]',
        'api_keys:',
        '  - {key: reader-key-0001, orgs: [acme], role: reader}',
        '  - {key: snapshotter-key-01, orgs: [acme], role: snapshotter}',
        '  - {key: member-key-00001, orgs: [acme], role: member}',
        '  - {key: admin-key-000001, orgs: [acme], role: admin}',
      ],
    });
    await createFlow(server, 'acme', 'flow');
    await beginTrail(server, 'acme', 'flow', 'trail');
    await createFlow(server, 'other', 'elsewhere');
  });
  after(async () => {
    await server?.stop();
  });

  const write = (key: string) =>
    server.multipart(
      'POST',
      '/api/v2/attestations/acme/flow/trail/trail/generic',
      { data_json: JSON.stringify({ attestation_name: 'a' }) },
      { key },
    );

  it('lets a reader read and nothing else', async () => {
    assert.equal((await server.get('/api/v2/flows/acme', { key: 'reader-key-0001' })).status, 200);
    assert.equal((await server.get('/api/v2/trails/acme/flow/trail', { key: 'reader-key-0001' })).status, 200);
    const attempt = await write('reader-key-0001');
    assert.equal(attempt.status, 403);
    assert.deepEqual(attempt.body, FORBIDDEN);
    assert.equal(
      (await server.json('PUT', '/api/v2/flows/acme', { name: 'x', description: 'y' }, { key: 'reader-key-0001' }))
        .status,
      403,
    );
    assert.equal((await server.get('/api/v2/service-accounts/acme', { key: 'reader-key-0001' })).status, 403);
  });

  it('lets a snapshotter read and manage service accounts, but not attest or create flows', async () => {
    assert.equal((await write('snapshotter-key-01')).status, 403);
    assert.equal(
      (
        await server.multipart(
          'PUT',
          '/api/v2/trails/acme/flow',
          { data_json: JSON.stringify({ name: 'nope' }) },
          { key: 'snapshotter-key-01' },
        )
      ).status,
      403,
    );
    assert.equal((await server.get('/api/v2/service-accounts/acme', { key: 'snapshotter-key-01' })).status, 200);
    const created = await server.json(
      'POST',
      '/api/v2/service-accounts/acme',
      { name: 'snap-made', privilege: 'reader' },
      { key: 'snapshotter-key-01' },
    );
    assert.equal(created.status, 201);
    const escalation = await server.json(
      'POST',
      '/api/v2/service-accounts/acme',
      { name: 'boss', privilege: 'admin' },
      { key: 'snapshotter-key-01' },
    );
    assert.equal(escalation.status, 403);
  });

  it('lets a member attest and create, and an admin do everything', async () => {
    assert.equal((await write('member-key-00001')).status, 201);
    assert.equal(
      (
        await server.json(
          'PUT',
          '/api/v2/flows/acme',
          { name: 'by-member', description: 'x' },
          { key: 'member-key-00001' },
        )
      ).status,
      201,
    );
    assert.equal((await write('admin-key-000001')).status, 201);
    const reported = (await server.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/trail/a')).body.map(
      (attestation) => attestation.reported_by,
    );
    assert.ok(reported.includes('api-key-3') && reported.includes('api-key-4'), reported.join(','));
  });

  it('answers 403 for an org the key does not cover, and 404 Organization not found for an org that does not exist', async () => {
    for (const key of ['reader-key-0001', 'member-key-00001', 'admin-key-000001']) {
      const reply = await server.get('/api/v2/flows/other', { key });
      assert.equal(reply.status, 403, key);
      assert.deepEqual(reply.body, FORBIDDEN);
    }
    assert.equal((await server.get('/api/v2/flows/other')).status, 200, 'the server admin key covers every org');
    assert.deepEqual((await server.get('/api/v2/flows/ghost')).body, { message: 'Organization not found' });
    for (const key of ['reader-key-0001', 'snapshotter-key-01', 'admin-key-000001']) {
      for (const path of ['/api/v2/flows/ghost', '/api/v2/artifacts/ghost', '/api/v2/environments/ghost/prod']) {
        const reply = await server.get(path, { key });
        assert.equal(reply.status, 404, `${key} ${path}`);
        assert.deepEqual(
          reply.body,
          { message: 'Organization not found' },
          'spec §Errors: whoever asks, a missing org is named as such',
        );
      }
    }
  });

  it('creates, lists, gets, updates and deletes service accounts', async () => {
    const created = await server.json<ServiceAccount>('POST', '/api/v2/service-accounts/acme', {
      name: 'ci-bot',
      description: 'CI',
      privilege: 'member',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'ci-bot');
    assert.equal(created.body.privilege, 'member');
    assert.equal(created.body.creating_user_id, 'admin');
    assert.equal(typeof created.body.created_at, 'number');
    const duplicate = await server.json('POST', '/api/v2/service-accounts/acme', {
      name: 'ci-bot',
      privilege: 'member',
    });
    assert.equal(duplicate.status, 409);
    assert.ok(
      (await server.get<ServiceAccount[]>('/api/v2/service-accounts/acme')).body.some(
        (account) => account.name === 'ci-bot',
      ),
    );
    assert.equal((await server.get<ServiceAccount>('/api/v2/service-accounts/acme/ci-bot')).body.description, 'CI');
    const patched = await server.json<ServiceAccount>('PATCH', '/api/v2/service-accounts/acme/ci-bot', {
      privilege: 'reader',
    });
    assert.equal(patched.body.privilege, 'reader');
    const missing = await server.get('/api/v2/service-accounts/acme/nobody');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: 'Service account not found' });
    assert.equal((await server.json('DELETE', '/api/v2/service-accounts/acme/ci-bot')).status, 200);
    assert.equal((await server.get('/api/v2/service-accounts/acme/ci-bot')).status, 404);
  });

  it('issues keys shown once that authenticate with the account’s privilege, revokes and rotates them', async () => {
    await server.json('POST', '/api/v2/service-accounts/acme', { name: 'deployer', privilege: 'member' });
    const issued = await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/deployer/api-keys', {
      description: 'pipeline',
    });
    assert.equal(issued.status, 201);
    const { id, key } = issued.body;
    assert.equal(typeof key, 'string');
    assert.equal(issued.body.description, 'pipeline');
    const listed = (await server.get<ApiKey[]>('/api/v2/service-accounts/acme/deployer/api-keys')).body;
    assert.equal(listed.length, 1);
    assert.ok(!('key' in listed[0]), 'a key is shown only when issued');
    assert.equal((await server.get<ApiKey>(`/api/v2/service-accounts/acme/deployer/api-keys/${id}`)).body.id, id);
    assert.equal((await write(key)).status, 201, 'Bearer with a service-account key');
    assert.equal(
      (await server.get('/api/v2/flows/acme', { key, scheme: 'basic' })).status,
      200,
      'Basic with the key as username',
    );
    assert.equal(
      (await server.get('/api/v2/flows/other', { key })).status,
      403,
      'an account key covers its own org only',
    );

    const rotated = await server.json<IssuedApiKey>(
      'POST',
      `/api/v2/service-accounts/acme/deployer/api-keys/${id}/rotate`,
      {
        grace_period_hours: 1,
      },
    );
    assert.equal(rotated.status, 201);
    assert.notEqual(rotated.body.key, key);
    assert.equal(
      (await server.get('/api/v2/flows/acme', { key })).status,
      200,
      'the old key works during the grace period',
    );
    assert.equal((await server.get('/api/v2/flows/acme', { key: rotated.body.key })).status, 200);
    const immediate = await server.json<IssuedApiKey>(
      'POST',
      `/api/v2/service-accounts/acme/deployer/api-keys/${rotated.body.id}/rotate`,
      null,
    );
    assert.equal(immediate.status, 201);
    assert.equal(
      (await server.get('/api/v2/flows/acme', { key: rotated.body.key })).status,
      401,
      'no grace period: revoked at once',
    );

    assert.equal(
      (await server.json('DELETE', `/api/v2/service-accounts/acme/deployer/api-keys/${immediate.body.id}`)).status,
      200,
    );
    const revoked = await server.get('/api/v2/flows/acme', { key: immediate.body.key });
    assert.equal(revoked.status, 401);
    assert.deepEqual(revoked.body, { message: 'Invalid API key' });
    const unknownKey = await server.get('/api/v2/service-accounts/acme/deployer/api-keys/nope');
    assert.deepEqual(unknownKey.body, { message: 'API key not found' });
    const past = await server.json('POST', '/api/v2/service-accounts/acme/deployer/api-keys', {
      description: 'old',
      expires_at: 1,
    });
    assert.equal(past.status, 400);
    const noDescription = await server.json('POST', '/api/v2/service-accounts/acme/deployer/api-keys', {});
    assert.deepEqual(noDescription.body, {
      errors: { description: 'Field required [input: None]' },
      message: 'Input payload validation failed',
    });
  });

  it('stops a deleted account’s keys at once', async () => {
    await server.json('POST', '/api/v2/service-accounts/acme', { name: 'short-lived', privilege: 'reader' });
    const { key } = (
      await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/short-lived/api-keys', {
        description: 'x',
      })
    ).body;
    assert.equal((await server.get('/api/v2/flows/acme', { key })).status, 200);
    await server.json('DELETE', '/api/v2/service-accounts/acme/short-lived');
    assert.equal((await server.get('/api/v2/flows/acme', { key })).status, 401);
  });
});

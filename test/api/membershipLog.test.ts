// The membership audit log (reference §2.18): every service account and key given or taken, by
// whom and when, kept after the account itself is deleted.
import assert from 'node:assert/strict';
import type { IssuedApiKey, MembershipEvent } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

describe('membership audit log', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  it('records accounts and keys created, changed, rotated, revoked and deleted, oldest first', async () => {
    assert.equal(
      (await server.json('POST', '/api/v2/service-accounts/default', { name: 'ci', privilege: 'snapshotter' })).status,
      201,
    );
    const key = await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/default/ci/api-keys', {
      description: 'pipeline',
    });
    assert.equal(key.status, 201);
    assert.equal(
      (await server.json('PATCH', '/api/v2/service-accounts/default/ci', { privilege: 'member' })).status,
      200,
    );
    const rotated = await server.json<IssuedApiKey>(
      'POST',
      `/api/v2/service-accounts/default/ci/api-keys/${key.body.id}/rotate`,
      null,
    );
    assert.equal(rotated.status, 201);
    assert.equal(
      (await server.json('DELETE', `/api/v2/service-accounts/default/ci/api-keys/${rotated.body.id}`)).status,
      200,
    );
    assert.equal((await server.json('DELETE', '/api/v2/service-accounts/default/ci')).status, 200);

    const log = await server.get<MembershipEvent[]>('/api/v2/membership-audit-log/default');
    assert.equal(log.status, 200);
    assert.deepEqual(
      log.body.map((event) => [event.type, event.service_account, event.api_key_id, event.user]),
      [
        ['service_account_created', 'ci', null, 'admin'],
        ['api_key_created', 'ci', key.body.id, 'admin'],
        ['service_account_updated', 'ci', null, 'admin'],
        ['api_key_revoked', 'ci', key.body.id, 'admin'],
        ['api_key_created', 'ci', rotated.body.id, 'admin'],
        ['api_key_revoked', 'ci', rotated.body.id, 'admin'],
        ['service_account_deleted', 'ci', null, 'admin'],
      ],
    );
    assert.deepEqual(log.body[2].data, { privilege: 'member', was: 'snapshotter' });
    assert.equal(JSON.stringify(log.body).includes(key.body.key), false, 'the log never holds a key itself');
  });

  it('names a missing org and asks for a key', async () => {
    assert.deepEqual((await server.get('/api/v2/membership-audit-log/ghost')).body, {
      message: 'Organization not found',
    });
    assert.equal((await server.get('/api/v2/membership-audit-log/default', { key: null })).status, 401);
  });
});

// Role escalation through service accounts (issue 23, item 1): a member or snapshotter key, from
// --config or from a service account, manages accounts only up to its own role. Each path the
// issue reproduced on main (a working admin key minted by a snapshotter, an admin account rotated,
// demoted, deleted) answers 403 and changes nothing: the admin account keeps its privilege and its
// one working key, it gains no key, and the membership audit log records nothing.
import assert from 'node:assert/strict';
import type { ApiKey, IssuedApiKey, MembershipEvent, ServiceAccount } from '../api/answers.ts';
import { startServer, type TestServer } from '../api/harness.ts';

const FORBIDDEN = { message: "You don't have permission to access this resource" };

describe('roles: a member or snapshotter key cannot climb through service accounts', function () {
  let server: TestServer;
  let adminKey: IssuedApiKey;
  /** Keys below admin: configured ones and service accounts' own. */
  const climbers: Array<{ label: string; key: string; role: 'member' | 'snapshotter'; account?: string }> = [];

  before(async function () {
    this.timeout(60_000);
    server = await startServer({
      config: [
        'orgs: [{name: acme}]',
        'api_keys:',
        '  - {key: configured-member-key, orgs: [acme], role: member}',
        '  - {key: configured-snapshotter-key, orgs: [acme], role: snapshotter}',
      ],
    });
    climbers.push({ label: 'configured member', key: 'configured-member-key', role: 'member' });
    climbers.push({ label: 'configured snapshotter', key: 'configured-snapshotter-key', role: 'snapshotter' });
    for (const role of ['member', 'snapshotter'] as const) {
      const account = `climbing-${role}`;
      assert.equal(
        (await server.json('POST', '/api/v2/service-accounts/acme', { name: account, privilege: role })).status,
        201,
      );
      const issued = await server.json<IssuedApiKey>('POST', `/api/v2/service-accounts/acme/${account}/api-keys`, {
        description: 'climber',
      });
      climbers.push({ label: `service account ${role}`, key: issued.body.key, role, account });
    }
    assert.equal(
      (await server.json('POST', '/api/v2/service-accounts/acme', { name: 'boss', privilege: 'admin' })).status,
      201,
    );
    adminKey = (
      await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/boss/api-keys', { description: 'boss' })
    ).body;
  });

  after(async () => {
    await server?.stop();
  });

  const membershipLog = async () =>
    (await server.get<MembershipEvent[]>('/api/v2/membership-audit-log/acme')).body.length;

  /** The admin account is as it was: admin, its one key working, nothing logged since `logged`. */
  const assertBossUntouched = async (logged: number, what: string) => {
    const boss = await server.get<ServiceAccount>('/api/v2/service-accounts/acme/boss');
    assert.equal(boss.status, 200, `${what}: the admin account still exists`);
    assert.equal(boss.body.privilege, 'admin', `${what}: still admin`);
    const keys = (await server.get<ApiKey[]>('/api/v2/service-accounts/acme/boss/api-keys')).body;
    assert.deepEqual(
      keys.map((key) => [key.id, key.revoked, key.revoked_at]),
      [[adminKey.id, false, null]],
      `${what}: no key added, none revoked`,
    );
    assert.equal((await server.get('/api/v2/flows/acme', { key: adminKey.key })).status, 200, `${what}: key works`);
    assert.equal(await membershipLog(), logged, `${what}: nothing in the membership audit log`);
  };

  const refused = async (
    what: string,
    attempt: (key: string) => Promise<{ status: number; body: unknown }>,
  ): Promise<void> => {
    for (const climber of climbers) {
      const logged = await membershipLog();
      const reply = await attempt(climber.key);
      assert.equal(reply.status, 403, `${climber.label} ${what}: ${JSON.stringify(reply.body)}`);
      assert.deepEqual(reply.body, FORBIDDEN);
      await assertBossUntouched(logged, `${climber.label} ${what}`);
    }
  };

  it('cannot mint a key of an admin account', async () => {
    await refused('mints a key', (key) =>
      server.json('POST', '/api/v2/service-accounts/acme/boss/api-keys', { description: 'mine now' }, { key }),
    );
  });

  it('cannot rotate, revoke or read the keys of an admin account', async () => {
    await refused('rotates', (key) =>
      server.json('POST', `/api/v2/service-accounts/acme/boss/api-keys/${adminKey.id}/rotate`, {}, { key }),
    );
    await refused('rotates with a grace period', (key) =>
      server.json(
        'POST',
        `/api/v2/service-accounts/acme/boss/api-keys/${adminKey.id}/rotate`,
        { grace_period_hours: 1 },
        { key },
      ),
    );
    await refused('revokes', (key) =>
      server.json('DELETE', `/api/v2/service-accounts/acme/boss/api-keys/${adminKey.id}`, undefined, { key }),
    );
    await refused('lists the keys', (key) => server.get('/api/v2/service-accounts/acme/boss/api-keys', { key }));
    await refused('reads a key', (key) =>
      server.get(`/api/v2/service-accounts/acme/boss/api-keys/${adminKey.id}`, { key }),
    );
  });

  it('cannot demote, describe or delete an admin account', async () => {
    for (const privilege of ['reader', 'snapshotter', 'member']) {
      await refused(`demotes to ${privilege}`, (key) =>
        server.json('PATCH', '/api/v2/service-accounts/acme/boss', { privilege }, { key }),
      );
    }
    await refused('changes the description', (key) =>
      server.json('PATCH', '/api/v2/service-accounts/acme/boss', { description: 'gone soon' }, { key }),
    );
    await refused('deletes', (key) => server.json('DELETE', '/api/v2/service-accounts/acme/boss', undefined, { key }));
  });

  it('cannot create an account stronger than itself', async () => {
    for (const climber of climbers) {
      const stronger = climber.role === 'member' ? ['admin'] : ['member', 'admin'];
      for (const privilege of stronger) {
        const name = `made-by-${climber.label.replace(/ /g, '-')}-${privilege}`;
        const logged = await membershipLog();
        const reply = await server.json(
          'POST',
          '/api/v2/service-accounts/acme',
          { name, privilege },
          { key: climber.key },
        );
        assert.equal(reply.status, 403, `${climber.label} creates ${privilege}`);
        assert.equal((await server.get(`/api/v2/service-accounts/acme/${name}`)).status, 404);
        assert.equal(await membershipLog(), logged);
      }
      const own = await server.json(
        'POST',
        '/api/v2/service-accounts/acme',
        { name: `peer-of-${climber.label.replace(/ /g, '-')}`, privilege: climber.role },
        { key: climber.key },
      );
      assert.equal(own.status, 201, `${climber.label} creates an account of its own role`);
    }
  });

  it('cannot raise its own account, nor a weaker one above itself', async () => {
    for (const climber of climbers.filter((each) => each.account !== undefined)) {
      for (const privilege of climber.role === 'member' ? ['admin'] : ['member', 'admin']) {
        const reply = await server.json(
          'PATCH',
          `/api/v2/service-accounts/acme/${climber.account}`,
          { privilege },
          { key: climber.key },
        );
        assert.equal(reply.status, 403, `${climber.label} raises itself to ${privilege}`);
        const self = await server.get<ServiceAccount>(`/api/v2/service-accounts/acme/${climber.account}`);
        assert.equal(self.body.privilege, climber.role);
      }
    }
    assert.equal(
      (await server.json('POST', '/api/v2/service-accounts/acme', { name: 'weak', privilege: 'reader' })).status,
      201,
    );
    for (const climber of climbers) {
      const reply = await server.json(
        'PATCH',
        '/api/v2/service-accounts/acme/weak',
        { privilege: 'admin' },
        { key: climber.key },
      );
      assert.equal(reply.status, 403, `${climber.label} raises a reader to admin`);
      assert.equal((await server.get<ServiceAccount>('/api/v2/service-accounts/acme/weak')).body.privilege, 'reader');
    }
  });

  it('still manages the accounts it reaches: a member rotates a member account key and demotes it', async () => {
    const member = climbers.find((climber) => climber.label === 'configured member')!;
    assert.equal(
      (await server.json('POST', '/api/v2/service-accounts/acme', { name: 'peer', privilege: 'member' })).status,
      201,
    );
    const issued = await server.json<IssuedApiKey>(
      'POST',
      '/api/v2/service-accounts/acme/peer/api-keys',
      { description: 'peer' },
      { key: member.key },
    );
    assert.equal(issued.status, 201);
    const rotated = await server.json<IssuedApiKey>(
      'POST',
      `/api/v2/service-accounts/acme/peer/api-keys/${issued.body.id}/rotate`,
      {},
      { key: member.key },
    );
    assert.equal(rotated.status, 201);
    assert.equal((await server.get('/api/v2/flows/acme', { key: rotated.body.key })).status, 200);
    assert.equal((await server.get('/api/v2/flows/acme', { key: issued.body.key })).status, 401, 'the old key ended');
    const demoted = await server.json<ServiceAccount>(
      'PATCH',
      '/api/v2/service-accounts/acme/peer',
      { privilege: 'reader' },
      { key: member.key },
    );
    assert.equal(demoted.body.privilege, 'reader');
  });
});

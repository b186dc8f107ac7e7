// A caller's own settings are kept under its principal id, never its name (issue 23, item 3): a
// service account named `admin` or `api-key-1` in one org sets its own default org, not the one of
// the key of every org or of the first --config key; a --config key keeps its choice when the file
// is reordered; and migration 210 keeps the admin key's choice. Both engines.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import pg from 'pg';
import type { IssuedApiKey } from '../api/answers.ts';
import { ENGINE, sharedPostgres, startServer, type TestServer } from '../api/harness.ts';

const KEYS = [
  '  - {key: two-org-member-key, orgs: [acme, beta], role: member}',
  '  - {key: other-two-org-key, orgs: [beta, acme], role: reader}',
];
const CONFIG = ['orgs: [{name: acme}, {name: beta}]', 'api_keys:'];

async function defaultOrgOf(server: TestServer, key: string): Promise<unknown> {
  const reply = await server.get<{ default_org_name: unknown }>('/api/v2/user/default-org', { key });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.default_org_name;
}

async function chooseOrg(server: TestServer, key: string, org: string): Promise<void> {
  const reply = await server.json('PUT', `/api/v2/user/${org}`, undefined, { key });
  assert.equal(reply.status, 200, reply.text);
}

/** A service account of `org` named `name`, and a key of it. */
async function accountKey(server: TestServer, org: string, name: string): Promise<string> {
  assert.equal(
    (await server.json('POST', `/api/v2/service-accounts/${org}`, { name, privilege: 'member' })).status,
    201,
  );
  const issued = await server.json<IssuedApiKey>('POST', `/api/v2/service-accounts/${org}/${name}/api-keys`, {
    description: name,
  });
  assert.equal(issued.status, 201);
  return issued.body.key;
}

describe('user settings: kept by principal id, never by name', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startServer({ config: [...CONFIG, ...KEYS] });
  });
  after(async () => {
    await server?.stop();
  });

  it('lets a service account named admin choose its own default org, not the admin key’s', async () => {
    await chooseOrg(server, server.key, 'acme');
    const impostor = await accountKey(server, 'beta', 'admin');
    await chooseOrg(server, impostor, 'beta');
    assert.equal(await defaultOrgOf(server, server.key), 'acme', 'the admin key kept its choice');
    assert.equal(await defaultOrgOf(server, impostor), 'beta');
  });

  it('keeps a service account named api-key-1 apart from the first --config key, and same names in two orgs apart', async () => {
    await chooseOrg(server, 'two-org-member-key', 'beta');
    const namesake = await accountKey(server, 'acme', 'api-key-1');
    await chooseOrg(server, namesake, 'acme');
    assert.equal(await defaultOrgOf(server, 'two-org-member-key'), 'beta', 'the --config key kept its choice');
    const twin = await accountKey(server, 'beta', 'api-key-1');
    await chooseOrg(server, twin, 'beta');
    assert.equal(await defaultOrgOf(server, namesake), 'acme');
    assert.equal(await defaultOrgOf(server, twin), 'beta');
  });

  it('keeps a --config key’s choice when the file is reordered, and drops it once the key loses that org', async () => {
    await chooseOrg(server, 'two-org-member-key', 'beta');
    await chooseOrg(server, 'other-two-org-key', 'acme');
    await server.stop({ keepData: true });
    server = await startServer({ dataDir: server.dataDir, config: [...CONFIG, KEYS[1], KEYS[0]] });
    assert.equal(await defaultOrgOf(server, 'two-org-member-key'), 'beta');
    assert.equal(await defaultOrgOf(server, 'other-two-org-key'), 'acme');
    await server.stop({ keepData: true });
    server = await startServer({
      dataDir: server.dataDir,
      config: [...CONFIG, '  - {key: two-org-member-key, orgs: [acme], role: member}', KEYS[1]],
    });
    assert.equal(await defaultOrgOf(server, 'two-org-member-key'), 'acme', 'its first org, the only one it may use');
  });
});

describe('user settings: migration 210 on settings kept by name', function () {
  this.timeout(60_000);
  let server: TestServer | undefined;
  after(async () => {
    await server?.stop();
  });

  it('keeps the admin key’s default org and gives no account the admin’s row', async () => {
    const databaseUrl =
      ENGINE === 'postgres' ? await (await sharedPostgres()).createDatabase(`settings_${process.pid}`) : undefined;
    const args = ['--org', 'acme', '--org', 'beta', ...(databaseUrl === undefined ? [] : ['--database', databaseUrl])];
    server = await startServer({ args });
    const impostor = await accountKey(server, 'acme', 'admin');
    const dataDir = server.dataDir;
    await server.stop({ keepData: true });
    // The tables as they were before migration 210, with rows named as then.
    const before = [
      'DROP TABLE principal_settings',
      'CREATE TABLE user_settings (principal TEXT PRIMARY KEY, default_org TEXT NOT NULL)',
      "INSERT INTO user_settings (principal, default_org) VALUES ('admin', 'beta'), ('api-key-1', 'acme')",
      "DELETE FROM schema_migrations WHERE id = '210-principal-settings'",
    ];
    if (databaseUrl === undefined) {
      const db = new DatabaseSync(join(dataDir, 'cev.sqlite'));
      try {
        for (const statement of before) db.exec(statement);
      } finally {
        db.close();
      }
    } else {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        for (const statement of before) await client.query(statement);
      } finally {
        await client.end();
      }
    }
    server = await startServer({ args, dataDir });
    assert.equal(await defaultOrgOf(server, server.key), 'beta');
    assert.equal(await defaultOrgOf(server, impostor), 'acme', 'the account named admin has its own org');
  });
});

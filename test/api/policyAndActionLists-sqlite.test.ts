// Migration 204 on a database that already holds actions and policies: what actions watch and
// which controls policies name are copied into their index rows, so renames still reach the
// actions and controls still name their policies. Read in the SQLite database file behind the server.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import type { Action, Control } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { createFlow } from './fixtures.ts';

const SCHEMA = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1';

describe('policy and action index rows on a database from before migration 204', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    for (const name of ['staging', 'quiet'])
      await server.json('PUT', '/api/v2/environments/acme', { name, type: 'K8S', description: name });
    await createFlow(server, 'acme', 'build');
    for (const [name, body] of [
      ['environments', { environments: ['staging', 'quiet'], triggers: ['ON_STARTED_ARTIFACT'] }],
      ['flows', { flows: ['build'], triggers: ['ON_STARTED_TRAIL'] }],
    ] as const) {
      const created = await server.json('PUT', `/api/v2/actions/acme/${name}`, {
        name: `${name}-hook`,
        targets: [{ type: 'EMAIL', emails: ['a@example.test'] }],
        ...body,
      });
      assert.equal(created.status, 201, created.text);
    }
    assert.equal(
      (await server.json('POST', '/api/v2/controls/acme', { identifier: 'review', name: 'Review' })).status,
      201,
    );
    const yaml = `${SCHEMA}\nartifacts:\n  attestations:\n    - name: decision\n      type: decision\n      for_control: review\n`;
    const put = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'reviewed' }),
      policy_file: yaml,
    });
    assert.equal(put.status, 201, put.text);
    await server.stop({ keepData: true });
    const db = new DatabaseSync(join(server.dataDir, 'cev.sqlite'));
    try {
      db.exec(`DROP TABLE action_watches;
               DROP TABLE policy_controls;
               DROP INDEX actions_live;
               DELETE FROM schema_migrations WHERE id = '204-policy-and-action-lists';`);
    } finally {
      db.close();
    }
    server = await startServer({ args: ['--org', 'acme'], dataDir: server.dataDir });
  });
  after(async () => {
    await server?.stop();
  });

  it('finds the policies naming a control', async () => {
    assert.deepEqual(((await server.get('/api/v2/controls/acme/review')).body as Control).policies_referencing, [
      'reviewed',
    ]);
  });

  it('renames what the actions watch', async () => {
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme/staging/rename', { new_name: 'preprod' })).status,
      200,
    );
    assert.equal((await server.json('PUT', '/api/v2/flows/acme/build/rename', { new_name: 'release' })).status, 200);
    const actions = (await server.get('/api/v2/actions/acme')).body as Action[];
    assert.deepEqual(
      actions.map((action) => [action.name, action.environments, action.flows]),
      [
        ['environments-hook', ['preprod', 'quiet'], []],
        ['flows-hook', [], ['release']],
      ],
    );
  });
});

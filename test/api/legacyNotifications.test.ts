// The legacy environment-notification routes (reference §2.12) answer as the current environment
// actions do, with the caller's own access rules.
import assert from 'node:assert/strict';
import { createEnvironment, createFlow } from './fixtures.ts';
import type { Action, ErrorBody } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

describe('legacy environment notifications', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    await createEnvironment(server, 'default', 'prod');
    await createFlow(server, 'default', 'web');
  });
  after(async () => {
    await server?.stop();
  });

  it('creates, lists, gets and deletes environment actions under /organizations/{org}/environments_notifications', async () => {
    const body = {
      name: 'legacy',
      targets: [{ type: 'EMAIL', emails: ['ops@example.test'] }],
      environments: ['prod'],
      triggers: ['ON_STARTED_ARTIFACT'],
    };
    const created = await server.json<Action>('PUT', '/api/v2/organizations/default/environments_notifications', body);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.name, 'legacy');
    assert.equal(created.body.type, 'environment');
    const flowAction = await server.json('PUT', '/api/v2/actions/default/flows', {
      name: 'flow-one',
      targets: [{ type: 'EMAIL', emails: ['a@example.test'] }],
      flows: ['web'],
      triggers: ['ON_STARTED_TRAIL'],
    });
    assert.equal(flowAction.status, 201, flowAction.text);
    const listed = await server.get<Action[]>('/api/v2/organizations/default/environments_notifications');
    assert.deepEqual(
      listed.body.map((action: { name: string }) => action.name),
      ['legacy'],
      'flow actions are not environment notifications',
    );
    assert.deepEqual(
      (await server.get(`/api/v2/organizations/default/environments_notifications/${created.body.number}`)).body,
      (await server.get(`/api/v2/actions/default/${created.body.number}`)).body,
    );
    const updated = await server.json<Action>('PUT', '/api/v2/organizations/default/environments_notifications', {
      ...body,
      triggers: ['ON_EXITED_ARTIFACT'],
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body.triggers, ['ON_EXITED_ARTIFACT']);
    assert.equal(
      (await server.json('DELETE', `/api/v2/organizations/default/environments_notifications/${created.body.number}`))
        .status,
      200,
    );
    assert.equal((await server.get(`/api/v2/actions/default/${created.body.number}`)).status, 404);
  });

  it('answers errors as the current routes do', async () => {
    const invalid = await server.json<ErrorBody>('PUT', '/api/v2/organizations/default/environments_notifications', {
      name: 'x',
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.message, 'Input payload validation failed');
    assert.equal((await server.get('/api/v2/organizations/default/environments_notifications/999')).status, 404);
    assert.equal(
      (await server.get('/api/v2/organizations/default/environments_notifications', { key: null })).status,
      401,
    );
    assert.deepEqual((await server.get('/api/v2/organizations/ghost/environments_notifications')).body, {
      message: 'Organization not found',
    });
  });
});

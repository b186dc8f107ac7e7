// Hosted operations under /organizations (reference §8.4): the organization itself, and the legacy
// route that replaces an environment notification by its number.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { organization } from '../../shared/contract/catalogue.ts';
import type { Action, ErrorBody } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { createEnvironment, createFlow, fieldError } from './fixtures.ts';

type Organization = FromSchema<typeof organization>;

const NOTIFICATIONS = '/api/v2/organizations/acme/environments_notifications';

describe('organizations (reference §8.4)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      config: [
        'orgs:',
        '  - name: acme',
        '  - name: beta-off',
        '    features:',
        '      controls: false',
        'api_keys:',
        '  - {key: acme-reader-key, orgs: [acme], role: reader}',
      ],
    });
    await createEnvironment(server, 'acme', 'prod');
    await createEnvironment(server, 'acme', 'staging');
    await createFlow(server, 'acme', 'web');
  });
  after(async () => {
    await server?.stop();
  });

  it('GET /organizations/{org}: its name, when it was made and its features, to any reader of it', async () => {
    const acme = await server.get<Organization>('/api/v2/organizations/acme', { key: 'acme-reader-key' });
    assert.equal(acme.status, 200, acme.text);
    assert.equal(acme.body.name, 'acme');
    assert.deepEqual(acme.body.features, { controls: true });
    assert.equal(acme.body.html_url, `${server.url}/acme/flows`);
    assert.ok(Math.abs(acme.body.created_at - Date.now() / 1000) < 600, 'made when the server first started');
    assert.deepEqual((await server.get<Organization>('/api/v2/organizations/beta-off')).body.features, {
      controls: false,
    });
    assert.equal((await server.get('/api/v2/organizations/beta-off', { key: 'acme-reader-key' })).status, 403);
    assert.deepEqual((await server.get('/api/v2/organizations/nowhere')).body, { message: 'Organization not found' });
  });

  it('PUT /organizations/{org}/environments_notifications/{number}: replaces that action, its number kept', async () => {
    const body = {
      name: 'legacy',
      targets: [{ type: 'EMAIL', emails: ['ops@example.test'] }],
      environments: ['prod'],
      triggers: ['ON_STARTED_ARTIFACT'],
    };
    const created = await server.json<Action>('PUT', NOTIFICATIONS, body);
    assert.equal(created.status, 201, created.text);
    const other = await server.json<Action>('PUT', NOTIFICATIONS, { ...body, name: 'other' });
    const { number } = created.body;
    const replaced = await server.json<Action>('PUT', `${NOTIFICATIONS}/${number}`, {
      ...body,
      name: 'renamed',
      environments: ['staging'],
      triggers: ['ON_EXITED_ARTIFACT'],
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(
      [replaced.body.number, replaced.body.name, replaced.body.environments, replaced.body.triggers],
      [number, 'renamed', ['staging'], ['ON_EXITED_ARTIFACT']],
    );
    assert.deepEqual((await server.get(`/api/v2/actions/acme/${number}`)).body, replaced.body);

    const taken = await server.json<ErrorBody>('PUT', `${NOTIFICATIONS}/${number}`, { ...body, name: 'other' });
    assert.equal(taken.status, 400);
    assert.match(fieldError(taken.body, 'name'), new RegExp(`^Action ${other.body.number} has this name already`));
    const missing = await server.json('PUT', `${NOTIFICATIONS}/9999`, body);
    assert.deepEqual(
      [missing.status, missing.body],
      [404, { message: "Action 9999 does not exist in organization 'acme'" }],
    );
    const flowAction = await server.json<Action>('PUT', '/api/v2/actions/acme/flows', {
      name: 'flow-one',
      targets: [{ type: 'EMAIL', emails: ['a@example.test'] }],
      flows: ['web'],
      triggers: ['ON_STARTED_TRAIL'],
    });
    assert.equal((await server.json('PUT', `${NOTIFICATIONS}/${flowAction.body.number}`, body)).status, 404);
    assert.equal((await server.json('PUT', `${NOTIFICATIONS}/first`, body)).status, 400);
    assert.equal(
      (await server.json('PUT', `${NOTIFICATIONS}/${number}`, { ...body, environments: ['nowhere'] })).status,
      404,
    );
    assert.equal(
      (await server.json('PUT', `${NOTIFICATIONS}/${number}`, body, { key: 'acme-reader-key' })).status,
      403,
    );
    assert.equal(
      (await server.get<Action>(`/api/v2/actions/acme/${number}`)).body.name,
      'renamed',
      'refusals change nothing',
    );
  });
});

// Concurrent creates of one unique resource: no 5xx, exactly one exists, the rest are updates.
import assert from 'node:assert/strict';
import type { Artifact, ErrorBody, Flow, Page, ServiceAccount, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { createFlow } from './fixtures.ts';

describe('concurrency', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
  });
  after(async () => {
    await server?.stop();
  });

  it('20 concurrent creates of the same flow: one 201, nineteen 200, one flow', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.multipart('PUT', '/api/v2/flows/acme/template_file', {
          data_json: JSON.stringify({ name: 'same-flow', description: 'd' }),
          template_file: 'version: 1',
        }),
      ),
    );
    assert.equal(replies.filter((reply) => reply.status === 201).length, 1);
    assert.equal(replies.filter((reply) => reply.status === 200).length, 19);
    assert.equal(
      (await server.get<Flow[]>('/api/v2/flows/acme')).body.filter((flow) => flow.name === 'same-flow').length,
      1,
    );
  });

  it('20 concurrent begins of the same trail: one 201, the rest 200, one trail', async () => {
    await createFlow(server, 'acme', 'trail-race');
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.multipart('PUT', '/api/v2/trails/acme/trail-race', {
          data_json: JSON.stringify({ name: 'same-trail' }),
        }),
      ),
    );
    assert.equal(replies.filter((reply) => reply.status === 201).length, 1);
    assert.equal(replies.filter((reply) => reply.status === 200).length, 19);
    assert.equal(
      (await server.get<Page<Trail>>('/api/v2/trails/acme/trail-race?page=1&per_page=20')).body.pagination.total,
      1,
    );
  });

  it('20 concurrent creates of the same service account: one 201, the rest 409 with a message, one account', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.json<ServiceAccount | ErrorBody>('POST', '/api/v2/service-accounts/acme', {
          name: 'same-bot',
          privilege: 'reader',
        }),
      ),
    );
    assert.equal(replies.filter((reply) => reply.status === 201).length, 1);
    for (const reply of replies.filter((entry) => entry.status !== 201)) {
      assert.equal(reply.status, 409);
      assert.ok('message' in reply.body, reply.text);
      assert.equal(typeof reply.body.message, 'string');
    }
    assert.equal(
      (await server.get<ServiceAccount[]>('/api/v2/service-accounts/acme')).body.filter(
        (account) => account.name === 'same-bot',
      ).length,
      1,
    );
  });

  it('20 concurrent attestations of the same artifact: one 201, the rest 200, one artifact', async () => {
    await createFlow(server, 'acme', 'artifact-race');
    const body = {
      fingerprint: 'f'.repeat(64),
      filename: 'x',
      git_commit: '0'.repeat(40),
      trail_name: 't',
      template_reference_name: 'x',
    };
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => server.json('POST', '/api/v2/artifacts/acme/artifact-race', body)),
    );
    assert.equal(replies.filter((reply) => reply.status === 201).length, 1);
    assert.ok(replies.every((reply) => reply.status === 200 || reply.status === 201));
    assert.equal((await server.get<Artifact[]>('/api/v2/artifacts/acme?flow_name=artifact-race')).body.length, 1);
  });
});

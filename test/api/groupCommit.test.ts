// Concurrent writes share commits (group commit, issue 9): a request that fails inside its
// transaction fails alone, and every request that succeeded is there, also after a restart.
import assert from 'node:assert/strict';
import type { Page, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, createFlow, fingerprint } from './fixtures.ts';

describe('concurrent writes in shared commits', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'busy');
  });
  after(async () => {
    await server?.stop();
  });

  it('commits every succeeding request and none of a failing one', async () => {
    const begun = Array.from({ length: 30 }, (_, index) =>
      server.multipart('PUT', '/api/v2/trails/acme/busy', { data_json: JSON.stringify({ name: `trail-${index}` }) }),
    );
    const refused = Array.from({ length: 30 }, (_, index) =>
      attest(server, 'acme', 'busy', `trail-${index}`, 'generic', {
        attestation_name: 'check',
        artifact_fingerprint: fingerprint(`missing-${index}`),
      }),
    );
    const statuses = (await Promise.all([...begun, ...refused])).map((reply) => reply.status);
    assert.deepEqual(statuses.slice(0, 30), Array(30).fill(201));
    assert.ok(
      statuses.slice(30).every((status) => status === 404),
      statuses.slice(30).join(','),
    );
    const listed = async () => (await server.get<Page<Trail>>('/api/v2/trails/acme/busy?page=1&per_page=100')).body;
    assert.equal((await listed()).pagination.total, 30);
    const attested = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        attest(server, 'acme', 'busy', `trail-${index}`, 'generic', { attestation_name: 'check' }),
      ),
    );
    assert.ok(attested.every((reply) => reply.status === 201));

    await server.stop({ keepData: true });
    server = await startServer({ args: ['--org', 'acme'], dataDir: server.dataDir });
    const after = await listed();
    assert.equal(after.pagination.total, 30);
    assert.ok(
      after.data.every(
        (trail: { events: Array<{ type: string }> }) =>
          trail.events.filter((event) => event.type === 'trail_attestation_reported').length === 1,
      ),
    );
  });
});

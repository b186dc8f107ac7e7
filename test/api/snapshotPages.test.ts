// A snapshot list pages in SQL (issue 9): each page, in either direction, holds the snapshots the
// whole list holds at its place, a page past the end is empty, and without paging the list is whole.
import assert from 'node:assert/strict';
import type { SnapshotSummary } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { fingerprint } from './fixtures.ts';

describe('snapshot list pages', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    const env = await server.json('PUT', '/api/v2/environments/acme', {
      name: 'paged',
      type: 'server',
      description: 'paged',
    });
    assert.equal(env.status, 201, env.text);
    for (let i = 1; i <= 7; i++) {
      const reply = await server.json('PUT', '/api/v2/environments/acme/paged/report/server', {
        artifacts: [{ digests: { [`/app-${i}`]: fingerprint(`app-${i}`) }, creationTimestamp: 1700000000 }],
      });
      assert.equal(reply.status, 200, reply.text);
    }
  });
  after(async () => {
    await server?.stop();
  });

  const indexes = async (query: string): Promise<number[]> => {
    const reply = await server.get<SnapshotSummary[]>(`/api/v2/snapshots/acme/paged?${query}`);
    assert.equal(reply.status, 200, reply.text);
    return reply.body.map((snapshot) => snapshot.index);
  };

  it('newest first by default, oldest first with reverse, page by page', async () => {
    assert.deepEqual(await indexes(''), [7, 6, 5, 4, 3, 2, 1]);
    assert.deepEqual(await indexes('page=1&per_page=3'), [7, 6, 5]);
    assert.deepEqual(await indexes('page=3&per_page=3'), [1]);
    assert.deepEqual(await indexes('page=2&per_page=3&reverse=true'), [4, 5, 6]);
    assert.deepEqual(await indexes('per_page=2'), [7, 6]);
    assert.deepEqual(await indexes('page=2'), []);
    assert.deepEqual(await indexes('page=2&per_page=2&interval=2..6'), [4, 3]);
  });

  it('a page far past the end is empty, not an error', async () => {
    assert.deepEqual(await indexes('page=9007199254740991&per_page=1000'), []);
  });
});

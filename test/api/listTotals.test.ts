// List totals are counts kept on write (issue 9): they follow every create and archive, and a
// filtered list still counts what it selects.
import assert from 'node:assert/strict';
import type { Flow, Page, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { beginTrail, createFlow } from './fixtures.ts';

describe('list totals kept on write', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    for (const flow of ['kept', 'archived']) {
      await createFlow(server, 'acme', flow);
      for (const trail of ['t1', 't2', 't3']) await beginTrail(server, 'acme', flow, trail);
    }
  });
  after(async () => {
    await server?.stop();
  });

  const totals = async (): Promise<{ flows: number; trails: number; ofFlow: number; filtered: number }> => ({
    flows: (await server.get<Page<Flow>>('/api/v2/flows/acme?page=1&per_page=1')).body.pagination.total,
    trails: (await server.get<Page<Trail>>('/api/v2/trails/acme?page=1&per_page=1')).body.pagination.total,
    ofFlow: (await server.get<Page<Trail>>('/api/v2/trails/acme/kept?page=1&per_page=1')).body.pagination.total,
    filtered: (await server.get<Page<Flow>>('/api/v2/flows/acme?page=1&per_page=1&search_by_name=kep')).body.pagination
      .total,
  });

  it('counts live flows and the trails of live flows, before and after an archive', async () => {
    assert.deepEqual(await totals(), { flows: 2, trails: 6, ofFlow: 3, filtered: 1 });
    assert.equal((await server.json('PUT', '/api/v2/flows/acme/archived/archive', null)).status, 200);
    assert.deepEqual(await totals(), { flows: 1, trails: 3, ofFlow: 3, filtered: 1 });
    await beginTrail(server, 'acme', 'kept', 't4');
    assert.deepEqual(await totals(), { flows: 1, trails: 4, ofFlow: 4, filtered: 1 });
  });

  it('keeps the counts across a restart', async () => {
    await server.stop({ keepData: true });
    server = await startServer({ args: ['--org', 'acme'], dataDir: server.dataDir });
    assert.deepEqual(await totals(), { flows: 1, trails: 4, ofFlow: 4, filtered: 1 });
  });
});

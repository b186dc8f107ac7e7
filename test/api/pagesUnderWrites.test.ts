// Pages read while others write (issue 27): a reader walks every page of each list while writers add
// trails, artifacts, attestations and snapshots (on PostgreSQL through two instances, one with its
// clock an hour behind, whose rows land inside the lists rather than at their front). Around each
// page read, the list is read whole from the database behind the server, before (A) and after (B).
// Each page must be a window of one state between the two: no row twice, in the list's order,
// starting where OFFSET would have in some state between A and B, and holding every row of A that
// falls between its first and last row. And the walk as a whole sees every row that existed when
// it began, at least once: rows only ever move back through a newest-first list as others arrive
// before them, so a client walking pages sees some rows twice, never misses one.
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, createEnvironment, createFlow, fingerprint } from './fixtures.ts';
import { storyLists, type Oracle, type PagedList } from './pageOracle.ts';
import { serversUnderWrites, walkedWhileWriting, type ServersUnderWrites } from './underWrites.ts';

const PER_PAGE = 5;

/** The list whole, as item keys, newest first. */
async function whole(oracle: Oracle, list: PagedList): Promise<string[]> {
  return (await oracle.rows(`${list.sql} LIMIT ? OFFSET ?`, [...(list.params ?? []), -1, 0])).map(list.row);
}

/**
 * Walks every page of `list` while others write, checking each page against the list before and
 * after it was read; answers how many pages were read while the list changed.
 */
async function walked(server: TestServer, oracle: Oracle, list: PagedList): Promise<number> {
  const atStart = await whole(oracle, list);
  const seen = new Set<string>();
  let whileChanging = 0;
  for (let page = 1; ; page++) {
    const a = await whole(oracle, list);
    const separator = list.path.includes('?') ? '&' : '?';
    const reply = await server.get(`${list.path}${separator}page=${page}&per_page=${PER_PAGE}`);
    assert.equal(reply.status, 200, reply.text);
    const b = await whole(oracle, list);
    if (b.join('\n') !== a.join('\n')) whileChanging += 1;
    const items = list.items(reply.body).map(list.item);
    const where = `${list.path} page ${page}: ${JSON.stringify(items)}`;
    const offset = (page - 1) * PER_PAGE;
    assert.equal(new Set(items).size, items.length, `${where} shows a row twice`);
    if (items.length === 0) {
      assert.ok(offset >= a.length, `${where} is empty though A holds ${a.length} rows`);
      break;
    }
    const positions = items.map((item) => b.indexOf(item));
    assert.ok(
      positions.every((position, i) => position !== -1 && (i === 0 || position > positions[i - 1])),
      `${where} is not in the list's order: ${JSON.stringify(b)}`,
    );
    // The page's state S holds every row of A and is held by B, in B's order: before its first
    // row S has `offset` rows, at least A's before it and at most B's.
    const existed = (row: string): boolean => a.includes(row);
    const first = positions[0];
    const last = positions[positions.length - 1];
    const skipped = b.slice(first, last + 1).filter((row) => existed(row) && !items.includes(row));
    assert.deepEqual(skipped, [], `${where} skips rows that existed for the whole read`);
    const earlier = b.slice(0, first).filter(existed).length;
    assert.ok(earlier <= offset && offset <= first, `${where} starts after ${earlier}..${first} rows, not ${offset}`);
    if (items.length < PER_PAGE) {
      const after = b.slice(last + 1).filter(existed);
      assert.deepEqual(after, [], `${where} ends the list before rows that existed for the whole read`);
    }
    for (const item of items) seen.add(item);
    if (items.length < PER_PAGE) break;
  }
  const missed = atStart.filter((row) => !seen.has(row));
  assert.deepEqual(missed, [], `${list.path}: the walk missed rows that existed when it began`);
  return whileChanging;
}

/** Writes a trail with an artifact and an attestation, and a report, over and over on `server` until `stopped`. */
async function writing(server: TestServer, name: string, stopped: () => boolean): Promise<number> {
  let written = 0;
  while (!stopped()) {
    const trail = `${name}-${written}`;
    await beginTrail(server, 'acme', 'live', trail);
    await attestArtifact(server, 'acme', 'live', {
      fingerprint: fingerprint(trail),
      filename: 'app',
      trail_name: trail,
      template_reference_name: 'app',
      repo_info: { name: 'r1', url: 'https://git.example.test/r1' },
    });
    assert.equal((await attest(server, 'acme', 'live', trail, 'generic', { attestation_name: 'check' })).status, 201);
    const pod = { podName: `pod-${trail}`, namespace: 'prod', creationTimestamp: 1_700_000_000 };
    const reported = await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', {
      artifacts: [{ ...pod, digests: { [`registry.example/${trail}:1`]: fingerprint(trail) } }],
    });
    assert.equal(reported.status, 200, reported.text);
    written += 1;
  }
  return written;
}

describe('pages read while others write', function () {
  this.timeout(240_000);
  let under: ServersUnderWrites | undefined;

  before(async () => {
    under = await serversUnderWrites('under_writes');
    await createFlow(under.servers[0], 'acme', 'live');
    await createEnvironment(under.servers[0], 'acme', 'prod');
    let stopped = false;
    const seeded = under.servers.map((server, i) => writing(server, `seed${i}`, () => stopped));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    stopped = true;
    await Promise.all(seeded);
  });
  after(async () => {
    await under?.stop();
  });

  it('answers each page as a window of one state, and a walk sees every row that existed when it began', async () => {
    const { servers, oracle } = under!;
    const story = storyLists({ midway: 0, shared: '' });
    const listed = (path: string): PagedList => story.find((list) => list.path === path)!;
    // The story's lists of flow alpha, of flow live here.
    const ofLive = (path: string): PagedList => ({
      ...listed(path.replace('/live', '/alpha')),
      path,
      params: ['live'],
    });
    const lists = [
      listed('/api/v2/trails/acme'),
      listed('/api/v2/artifacts/acme'),
      listed('/api/v2/artifacts/acme?repo_name=r1'),
      listed('/api/v2/snapshots/acme/prod'),
      listed('/api/v2/environments/acme/prod/events'),
      ofLive('/api/v2/trails/acme/live'),
      ofLive('/api/v2/attestations/acme/live'),
    ];
    await walkedWhileWriting(servers, writing, lists, (list) => walked(servers[0], oracle, list));
  });
});

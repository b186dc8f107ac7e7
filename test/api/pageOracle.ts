// The OFFSET answer of every paged list (issue 27): the rows each list showed before its pages were
// read by position, read with LIMIT and OFFSET in the list's order from the database behind the
// server, to hold each page the API answers against. And a story of writes that numbering has to
// get right: rows arriving out of order (a clock behind), artifacts moving between repos, a flow
// archived, attestations of one flow committed together on two instances.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Param, Row } from '../../server/api/store/db.ts';
import { postgresStatement } from '../../server/api/store/postgres/dialect.ts';
import { attest, attestArtifact, beginTrail, createEnvironment, createFlow, fingerprint } from './fixtures.ts';
import type { TestServer } from './harness.ts';

/** Reads of the database behind a server. */
export interface Oracle {
  rows(sql: string, params: readonly Param[]): Promise<Row[]>;
  close(): Promise<void>;
}

export function sqliteOracle(dataDir: string): Oracle {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'), { readOnly: true });
  return {
    rows: (sql, params) => Promise.resolve(db.prepare(sql).all(...params) as Row[]),
    close: () => Promise.resolve(db.close()),
  };
}

export function postgresOracle(url: string): Oracle {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    rows: async (sql, params) => (await pool.query(postgresStatement(sql), params as unknown[])).rows as Row[],
    close: () => pool.end(),
  };
}

/** A paged list: its path (query included), its OFFSET answer (SQL ending in its ORDER BY), and how items and rows compare. */
export interface PagedList {
  path: string;
  sql: string;
  params?: Param[];
  /** The list's items in an answer's body. */
  items: (body: unknown) => Array<Record<string, unknown>>;
  /** What identifies an item, and the same of a row of `sql`. */
  item: (item: Record<string, unknown>) => string;
  row: (row: Row) => string;
}

/** Each page at each size is the OFFSET answer, from the first page to one past the last. */
export async function everyPageIsTheOffsetAnswer(
  server: TestServer,
  oracle: Oracle,
  list: PagedList,
  perPages: readonly number[] = [1, 3, 7, 50],
): Promise<void> {
  const params = list.params ?? [];
  const all = await oracle.rows(`${list.sql} LIMIT ? OFFSET ?`, [...params, -1, 0]);
  for (const perPage of perPages) {
    for (let page = 1; page <= Math.ceil(all.length / perPage) + 1; page++) {
      const separator = list.path.includes('?') ? '&' : '?';
      const reply = await server.get(`${list.path}${separator}page=${page}&per_page=${perPage}`);
      assert.equal(reply.status, 200, `${list.path} page ${page}: ${reply.text}`);
      const expected = await oracle.rows(`${list.sql} LIMIT ? OFFSET ?`, [...params, perPage, (page - 1) * perPage]);
      assert.deepEqual(
        list.items(reply.body).map(list.item),
        expected.map(list.row),
        `${list.path} page ${page} of ${perPage}`,
      );
    }
  }
  assert.ok(all.length > 0, `${list.path} lists something`);
}

const text = (value: unknown): string => String(value);
const data = (body: unknown): Array<Record<string, unknown>> => (body as { data: Array<Record<string, unknown>> }).data;
const array = (body: unknown): Array<Record<string, unknown>> => body as Array<Record<string, unknown>>;

const LIVE_TRAILS = `SELECT t.name FROM trails t JOIN flows f ON f.id = t.flow_id
                      WHERE t.org_id = (SELECT id FROM orgs WHERE name = 'acme') AND f.archived_at IS NULL`;
const TRAIL_ORDER = 'ORDER BY t.created_at DESC, t.rowid DESC';
const LIVE_ARTIFACTS = `SELECT a.fingerprint, t.name AS trail FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
                         WHERE a.org_id = (SELECT id FROM orgs WHERE name = 'acme') AND f.archived_at IS NULL`;
const ARTIFACT_ORDER = 'ORDER BY a.created_at DESC, a.seq DESC';
const EVENTS = `SELECT v.snapshot_idx, v.type, v.fingerprint FROM environment_events v
                 WHERE v.environment_id = (SELECT id FROM environments WHERE name = 'prod' AND archived_at IS NULL)`;

function trails(path: string, filter = '', params: Param[] = []): PagedList {
  return {
    path,
    sql: `${LIVE_TRAILS} ${filter} ${TRAIL_ORDER}`,
    params,
    items: data,
    item: (item) => text(item.name),
    row: (row) => text(row.name),
  };
}

function artifacts(path: string, filter = '', params: Param[] = []): PagedList {
  return {
    path,
    sql: `${LIVE_ARTIFACTS} ${filter} ${ARTIFACT_ORDER}`,
    params,
    items: array,
    item: (item) => `${text(item.fingerprint)} ${text(item.trail_name)}`,
    row: (row) => `${text(row.fingerprint)} ${text(row.trail)}`,
  };
}

function events(query: string, order: 'ASC' | 'DESC', filter = '', params: Param[] = []): PagedList {
  return {
    path: `/api/v2/environments/acme/prod/events${query}`,
    sql: `${EVENTS} ${filter} ORDER BY v.snapshot_idx ${order}, v.id ${order}`,
    params,
    items: array,
    item: (item) => `${text(item.snapshot_index)} ${text(item.type)} ${text(item.sha256)}`,
    row: (row) => `${text(row.snapshot_idx)} ${text(row.type)} ${text(row.fingerprint)}`,
  };
}

function snapshots(query: string, order: 'ASC' | 'DESC', from: number, to: number): PagedList {
  return {
    path: `/api/v2/snapshots/acme/prod${query}`,
    sql: `SELECT s.idx FROM snapshots s WHERE s.environment_id = (SELECT id FROM environments WHERE name = 'prod' AND archived_at IS NULL)
            AND s.idx BETWEEN ? AND ? ORDER BY s.idx ${order}`,
    params: [from, to],
    items: array,
    item: (item) => text(item.index),
    row: (row) => text(row.idx),
  };
}

function flows(query: string, order: string, filter = ''): PagedList {
  return {
    path: `/api/v2/flows/acme${query}`,
    sql: `SELECT f.name FROM flows f WHERE f.org_id = (SELECT id FROM orgs WHERE name = 'acme') AND f.archived_at IS NULL ${filter} ORDER BY ${order}`,
    items: data,
    item: (item) => text(item.name),
    row: (row) => text(row.name),
  };
}

/** The story's report times, as the times filters of environment events take. */
export interface StoryTimes {
  /** A time between the first phase's reports and the last's (the second phase's are an hour behind both). */
  midway: number;
  /** A fingerprint two trails hold. */
  shared: string;
}

/** Every paged list of the story, with each filter and order it takes. */
export function storyLists(times: StoryTimes): PagedList[] {
  const ofFlow = 'AND f.name = ?';
  const tagged = `AND EXISTS (SELECT 1 FROM json_each(f.tags) WHERE key = 'team' AND value = 'a')`;
  const attestations = (query: string, filter: string, params: Param[]): PagedList => ({
    path: `/api/v2/attestations/acme/alpha${query}`,
    sql: `SELECT a.id FROM attestations a JOIN flows f ON f.id = a.flow_id WHERE f.name = ? AND f.archived_at IS NULL ${filter} ORDER BY a.seq DESC`,
    params: ['alpha', ...params],
    items: data,
    item: (item) => text(item.attestation_id),
    row: (row) => text(row.id),
  });
  const window = Math.floor(times.midway);
  const activity = 'coalesce(f.latest_activity_at, 0)';
  return [
    flows('', 'f.name_key ASC'),
    flows('?sort_direction=desc', 'f.name_key DESC'),
    flows('?sort=latest_activity', `${activity} DESC, f.name_key ASC`),
    flows('?sort=latest_activity&sort_direction=asc', `${activity} ASC, f.name_key ASC`),
    flows('?search_by_name=o', 'f.name_key ASC', "AND instr(f.name, 'o') > 0"),
    flows('?search_by_name=O&case_sensitive=false', 'f.name_key ASC', "AND instr(lower(f.name), 'o') > 0"),
    trails('/api/v2/trails/acme/alpha', ofFlow, ['alpha']),
    trails('/api/v2/trails/acme/beta', ofFlow, ['beta']),
    trails('/api/v2/trails/acme'),
    trails('/api/v2/trails/acme?flow=alpha', ofFlow, ['alpha']),
    trails('/api/v2/trails/acme?flow_tag=team=a', tagged),
    trails('/api/v2/trails/acme?flow=alpha&flow_tag=team=a', `${ofFlow} ${tagged}`, ['alpha']),
    trails(
      `/api/v2/trails/acme?fingerprint=${times.shared}`,
      'AND t.id IN (SELECT trail_id FROM artifacts WHERE fingerprint = ?)',
      [times.shared],
    ),
    artifacts('/api/v2/artifacts/acme'),
    artifacts('/api/v2/artifacts/acme?flow_name=alpha', ofFlow, ['alpha']),
    artifacts('/api/v2/artifacts/acme?repo_name=r1', 'AND a.repo_name = ?', ['r1']),
    artifacts('/api/v2/artifacts/acme?repo_name=r2', 'AND a.repo_name = ?', ['r2']),
    artifacts('/api/v2/artifacts/acme?flow_name=alpha&repo_name=r1', `${ofFlow} AND a.repo_name = ?`, ['alpha', 'r1']),
    attestations('', '', []),
    attestations(`?from_timestamp=${window}`, 'AND a.created_at >= ?', [window]),
    attestations(`?to_timestamp=${window}`, 'AND a.created_at <= ?', [window]),
    snapshots('', 'DESC', 1, 1e9),
    snapshots('?reverse=true', 'ASC', 1, 1e9),
    snapshots('?interval=2..5', 'DESC', 2, 5),
    snapshots('?interval=2..5&reverse=true', 'ASC', 2, 5),
    events('', 'DESC'),
    events('?reverse=true', 'ASC'),
    events('?start=2&end=6', 'DESC', 'AND v.snapshot_idx BETWEEN 2 AND 6'),
    events('?interval=3..7&reverse=true', 'ASC', 'AND v.snapshot_idx BETWEEN 3 AND 7'),
    events(`?start_ts=${window}`, 'DESC', 'AND v.reported_at >= ?', [window]),
    events(`?end_ts=${window}&reverse=true`, 'ASC', 'AND v.reported_at <= ?', [window]),
  ];
}

const SIMPLE = 'version: 1\n';

/** A K8S report of the pods running `labels`' images. */
function running(labels: readonly string[]): Record<string, unknown> {
  return {
    artifacts: labels.map((label) => ({
      podName: `pod-${label}`,
      namespace: 'prod',
      creationTimestamp: 1_700_000_000,
      digests: { [`registry.example/${label}:1`]: fingerprint(label) },
    })),
  };
}

/** Flows of one trail each, whose names sort otherwise than their activity and their binary order. */
const SOLO = ['Solo-a', 'solo-B', 'sOlo-c', 'solo-d', 'Echo', 'echo-2', 'zulu', 'Alpha2'];

/** A trail begun in each of the solo flows `picked` selects (their activity moves to now, on `server`'s clock). */
async function touched(server: TestServer, suffix: string, picked: (index: number) => boolean): Promise<void> {
  for (const [index, flow] of SOLO.entries())
    if (picked(index)) await beginTrail(server, 'acme', flow, `${flow}-${suffix}`);
}

/** Trails, their artifacts and attestations, and reports, written on `server` under names ending in `suffix`. */
async function wrote(server: TestServer, suffix: string, count: number, repos: readonly string[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const flows = ['alpha', ...(i % 2 === 0 ? ['beta'] : []), ...(i % 3 === 0 ? ['gone'] : [])];
    for (const flow of flows) {
      const trail = `${flow}-${suffix}${i}`;
      await beginTrail(server, 'acme', flow, trail);
      const repo = repos[i % repos.length];
      await attestArtifact(server, 'acme', flow, {
        fingerprint: fingerprint(trail),
        filename: 'app',
        trail_name: trail,
        template_reference_name: 'app',
        ...(repo === '' ? {} : { repo_info: { name: repo, url: `https://git.example.test/${repo}` } }),
      });
    }
    const attested = await attest(server, 'acme', 'alpha', `alpha-${suffix}${i}`, 'generic', {
      attestation_name: 'check',
    });
    assert.equal(attested.status, 201, attested.text);
    const report = await server.json(
      'PUT',
      '/api/v2/environments/acme/prod/report/K8S',
      running([`alpha-${suffix}${i}`, ...(i % 2 === 0 ? [`beta-${suffix}${i}`] : [])]),
    );
    assert.equal(report.status, 200, report.text);
  }
}

/** Re-reports artifacts of `trails` (of alpha) with another repo: each moves between the repos' lists, in its place by time. */
async function moved(server: TestServer, trails: readonly string[], repo: string): Promise<void> {
  for (const trail of trails)
    await attestArtifact(server, 'acme', 'alpha', {
      fingerprint: fingerprint(trail),
      filename: 'app',
      trail_name: trail,
      template_reference_name: 'app',
      repo_info: { name: repo, url: `https://git.example.test/${repo}` },
    });
}

/**
 * The story, in three phases on servers the engine gives: `now` keeps the machine's clock, `behind`
 * runs an hour behind (a restart with the clock set back on SQLite, a second instance on
 * PostgreSQL). Rows the second phase writes arrive before the first phase's in every time order.
 * On two instances, attestations of one flow are also written on both at once.
 */
export async function writeStory(
  now: () => Promise<TestServer>,
  behind: () => Promise<TestServer>,
  both?: readonly TestServer[],
): Promise<StoryTimes> {
  let server = await now();
  for (const flow of ['alpha', 'beta', 'gone', ...SOLO]) await createFlow(server, 'acme', flow, SIMPLE);
  await touched(server, 'n', (index) => index % 2 === 0);
  for (const flow of ['alpha', 'gone'])
    await server.json('PATCH', `/api/v2/tags/acme/flow/${flow}`, { set_tags: { team: 'a' } });
  await createEnvironment(server, 'acme', 'prod');
  await wrote(server, 'n', 9, ['r1', 'r2', '']);
  const midway = Date.now() / 1000;
  server = await behind();
  await wrote(server, 'b', 6, ['r2', 'r1']);
  await touched(server, 'b', (index) => index % 3 === 0);
  await moved(server, ['alpha-n0', 'alpha-n3'], 'r2');
  if (both !== undefined)
    await Promise.all(
      both.flatMap((instance, i) =>
        Array.from({ length: 10 }, async (_, j) =>
          assert.equal(
            (await attest(instance, 'acme', 'alpha', `alpha-n${(i + j) % 9}`, 'generic', { attestation_name: 'race' }))
              .status,
            201,
          ),
        ),
      ),
    );
  server = await now();
  await wrote(server, 'm', 4, ['r1']);
  await touched(server, 'm', (index) => index === 1);
  await moved(server, ['alpha-b0'], 'r1');
  // One trail of beta holds an artifact of alpha too: the fingerprint filter picks two trails.
  await attestArtifact(server, 'acme', 'beta', {
    fingerprint: fingerprint('alpha-n4'),
    filename: 'app',
    trail_name: 'beta-n2',
    template_reference_name: 'shared',
  });
  const archived = await server.json('PUT', '/api/v2/flows/acme/gone/archive', null);
  assert.equal(archived.status, 200, archived.text);
  return { midway, shared: fingerprint('alpha-n4') };
}

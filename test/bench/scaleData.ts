// What the scale benchmarks share (issue 9 and 10): seeding a store to a size in batched SQL on
// either engine (copying rows the API wrote, so seeding takes minutes), the requests measured at
// each size, and measuring them with autocannon against one or several server instances.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import pg from 'pg';
import type { TestServer } from '../api/harness.ts';
import {
  attest,
  attestArtifact,
  beginTrail,
  commit,
  createFlow,
  fingerprint,
  WORKED_TEMPLATE,
} from '../api/fixtures.ts';
import { nameSortKey } from '../../server/api/store/sortKey.ts';
import { multipart, scanData } from './scanBody.ts';

export const SECONDS = Number(process.env.CEV_BENCH_SECONDS ?? 3);
export const CONNECTIONS = 10;
export const TRAILS_PER_FLOW = 100;
/** Rows per seeding transaction: bounds the WAL between checkpoints. */
const SEED_BATCH = 100_000;

export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? NaN : Number(match[1]) / 1024;
}

export const flowName = (index: number): string => `flow-${String(index).padStart(6, '0')}`;

/** The rows every seeded row copies: a flow, a trail, an artifact and an attestation the API wrote. */
export async function writeTemplates(server: TestServer): Promise<void> {
  await createFlow(server, 'acme', 'template-flow', WORKED_TEMPLATE);
  await beginTrail(server, 'acme', 'template-flow', 'template-trail');
  await attestArtifact(server, 'acme', 'template-flow', {
    fingerprint: fingerprint('template'),
    filename: 'cli',
    git_commit: commit('template'),
    trail_name: 'template-trail',
    template_reference_name: 'cli',
  });
  const reply = await attest(server, 'acme', 'template-flow', 'template-trail', 'generic', {
    attestation_name: 'bar',
    is_compliant: true,
  });
  if (reply.status !== 201) throw new Error(`template attestation: ${reply.status} ${reply.text}`);
  // On PostgreSQL an attestation leaves its trail's state to the next write that takes the whole
  // write lock (store/index.ts): this update is one, so the copies take a state, not NULL, which
  // would have every read of them evaluate their trails instead of reading the stored states.
  await beginTrail(server, 'acme', 'template-flow', 'template-trail');
}

/** Trails, artifacts and attestations `from` ≤ i < `to`, and the flows they need, in batches, in a SQLite data directory. */
export function seedSqlite(dataDir: string, from: number, to: number): void {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'));
  db.exec('PRAGMA synchronous = OFF');
  const series = 'WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)';
  const flows = db.prepare(
    `INSERT INTO flows (id, org_id, name, name_key, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at)
     SELECT ?, org_id, ?, ?, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at
       FROM flows WHERE name = 'template-flow'`,
  );
  const trails = db.prepare(
    `${series} INSERT INTO trails (id, org_id, flow_id, name, description, template_id, template_content, template, body, created_by, created_at, last_modified_at,
                                   compliance_state)
     SELECT 'trail-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, s.description, s.template_id, s.template_content, s.template, s.body,
            s.created_by, s.created_at + i, s.created_at + i, s.compliance_state
       FROM n, (SELECT * FROM trails WHERE name = 'template-trail') s`,
  );
  const artifacts = db.prepare(
    `${series} INSERT INTO artifacts (id, org_id, flow_id, trail_id, fingerprint, template_reference_name, filename, git_commit, repo_name, body, created_at, last_modified_at)
     SELECT 'artifact-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, lower(hex(randomblob(32))), s.template_reference_name, s.filename,
            lower(hex(randomblob(20))), s.repo_name, s.body, s.created_at + i, s.created_at + i
       FROM n, (SELECT * FROM artifacts WHERE filename = 'cli' LIMIT 1) s`,
  );
  const attestations = db.prepare(
    `${series} INSERT INTO attestations (id, org_id, flow_id, trail_id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact,
                                         evidence_sha256, evidence_filename, body, reported_by, created_at)
     SELECT 'attestation-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, s.name, s.type, s.is_override, s.is_compliant, NULL, NULL,
            NULL, NULL, s.body, s.reported_by, s.created_at + i
       FROM n, (SELECT * FROM attestations WHERE name = 'bar' LIMIT 1) s`,
  );
  for (let start = from; start < to; start += SEED_BATCH) {
    const end = Math.min(to, start + SEED_BATCH);
    db.exec('BEGIN');
    for (let flow = Math.ceil(start / TRAILS_PER_FLOW); flow * TRAILS_PER_FLOW < end; flow++) {
      // Flow ids follow the trails' 'flow-' || (i / 100); names are zero-padded so they sort by number.
      flows.run(`flow-${flow}`, flowName(flow), nameSortKey(flowName(flow)));
    }
    trails.run(start, end);
    artifacts.run(start, end);
    attestations.run(start, end);
    // Each copy is evaluated as its original was (same template, artifact and attestation), so it
    // takes the original's state above instead of the queue's evaluation one trail at a time.
    db.exec('DELETE FROM trails_to_evaluate');
    db.exec('COMMIT');
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
}

/** An 8-hex prefix of one seeded fingerprint that no other fingerprint or commit shares. */
export function uniquePrefix(dataDir: string): string {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'), { readOnly: true });
  try {
    for (let index = 0; ; index++) {
      const row = db.prepare('SELECT fingerprint FROM artifacts WHERE id = ?').get(`artifact-${index * 7}`) as
        { fingerprint: string } | undefined;
      if (row === undefined) throw new Error('no seeded artifact');
      const prefix = row.fingerprint.slice(0, 8);
      const bound = `${prefix}\u{10FFFF}`;
      const fingerprints = db
        .prepare('SELECT count(*) AS n FROM artifacts WHERE fingerprint >= ? AND fingerprint < ?')
        .get(prefix, bound) as { n: number };
      const commits = db
        .prepare('SELECT count(*) AS n FROM artifacts WHERE lower(git_commit) >= ? AND lower(git_commit) < ?')
        .get(prefix, bound) as { n: number };
      if (Number(fingerprints.n) === 1 && Number(commits.n) === 0) return prefix;
    }
  } finally {
    db.close();
  }
}

export interface Measure {
  rps: number;
  p99: number;
  /** Every request the measurement made, warm-up included (what CPU time over it is divided by). */
  requests?: number;
}

/**
 * The better of two rounds after a warm-up: the machine is shared, and others' load only slows a
 * round down. Several servers share the connections (autocannon spreads them round-robin), so the
 * rate is what the instances answer together.
 */
export async function measure(
  servers: TestServer | TestServer[],
  path: string,
  connections = CONNECTIONS,
): Promise<Measure> {
  const list = Array.isArray(servers) ? servers : [servers];
  const url = list.map((server) => `${server.url}${path}`);
  const options = {
    url: url.length === 1 ? url[0] : url,
    headers: { authorization: `Bearer ${list[0].key}` },
    connections,
  };
  await autocannon({ ...options, duration: 1 });
  let best: Measure | undefined;
  for (let round = 0; round < 2; round++) {
    const result = await autocannon({ ...options, duration: SECONDS });
    if (result.non2xx + result.errors > 0)
      throw new Error(`GET ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    if (best === undefined || result.requests.average > best.rps)
      best = { rps: result.requests.average, p99: result.latency.p99 };
  }
  return best!;
}

/** The requests of the table, at a store of `size` trails. */
export function requestsAt(size: number, prefix: string): Array<[string, string]> {
  const flows = size / TRAILS_PER_FLOW;
  const flow = flowName(Math.floor(flows / 2));
  const deepPage = TRAILS_PER_FLOW / 20;
  return [
    ['GET /flows/{org}', '/api/v2/flows/acme?page=1&per_page=20'],
    ['GET /artifacts/{org}', '/api/v2/artifacts/acme?page=1&per_page=20'],
    ['GET /search/{org}/sha/{8 hex}', `/api/v2/search/acme/sha/${prefix}`],
    ['GET /trails/{org}?flow= page 1', `/api/v2/trails/acme?flow=${flow}&page=1&per_page=20`],
    [`GET /trails/{org}?flow= page ${deepPage}`, `/api/v2/trails/acme?flow=${flow}&page=${deepPage}&per_page=20`],
    ['GET /trails/{org}/{flow}', `/api/v2/trails/acme/${flow}?page=1&per_page=20`],
    [
      'GET /trails/{org}/{flow}/{trail}',
      `/api/v2/trails/acme/${flow}/trail-${Math.floor(flows / 2) * TRAILS_PER_FLOW + 7}`,
    ],
  ];
}

/** The same rows as seedSqlite, in a PostgreSQL database (its dialect: generate_series, md5 for random hex). */
export async function seedPostgres(url: string, from: number, to: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const series = 'generate_series($1::bigint, $2::bigint - 1) AS n(i)';
  const hex = 'md5(random()::text) || md5(random()::text)';
  try {
    for (let start = from; start < to; start += SEED_BATCH) {
      const end = Math.min(to, start + SEED_BATCH);
      const ids: string[] = [];
      const names: string[] = [];
      for (let flow = Math.ceil(start / TRAILS_PER_FLOW); flow * TRAILS_PER_FLOW < end; flow++) {
        ids.push(`flow-${flow}`);
        names.push(flowName(flow));
      }
      await client.query('BEGIN');
      // Without the triggers, which would update the org's and each flow's counts once per row:
      // PostgreSQL keeps every version of a row a transaction updates, so the 100,000th update of
      // the org walks 100,000 versions. The counts and latest states are set once per batch below instead.
      await client.query('SET LOCAL session_replication_role = replica');
      await client.query(
        `INSERT INTO flows (id, org_id, name, name_key, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at)
         SELECT f.id, org_id, f.name, f.name_key, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at
           FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, name, name_key), (SELECT * FROM flows WHERE name = 'template-flow') s`,
        [ids, names, names.map(nameSortKey)],
      );
      await client.query(
        `INSERT INTO trails (id, org_id, flow_id, name, description, template_id, template_content, template, body, created_by, created_at, last_modified_at,
                             compliance_state)
         SELECT 'trail-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, s.description, s.template_id, s.template_content, s.template, s.body,
                s.created_by, s.created_at + i, s.created_at + i, s.compliance_state
           FROM ${series}, (SELECT * FROM trails WHERE name = 'template-trail') s`,
        [start, end],
      );
      await client.query(
        `INSERT INTO artifacts (id, org_id, flow_id, trail_id, fingerprint, template_reference_name, filename, git_commit, repo_name, body, created_at, last_modified_at)
         SELECT 'artifact-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, ${hex}, s.template_reference_name, s.filename,
                substr(${hex}, 1, 40), s.repo_name, s.body, s.created_at + i, s.created_at + i
           FROM ${series}, (SELECT * FROM artifacts WHERE filename = 'cli' LIMIT 1) s`,
        [start, end],
      );
      await client.query(
        `INSERT INTO attestations (id, org_id, flow_id, trail_id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact,
                                   evidence_sha256, evidence_filename, body, reported_by, created_at)
         SELECT 'attestation-' || i, s.org_id, 'flow-' || (i / ${TRAILS_PER_FLOW}), 'trail-' || i, s.name, s.type, s.is_override, s.is_compliant, NULL, NULL,
                NULL, NULL, s.body, s.reported_by, s.created_at + i
           FROM ${series}, (SELECT * FROM attestations WHERE name = 'bar' LIMIT 1) s`,
        [start, end],
      );
      // The trigger that keeps each trail's latest attestation versions is off with the others.
      await client.query(
        `INSERT INTO attestation_heads (trail_id, name, type, target_artifact, artifact_fingerprint, created_at, seq)
         SELECT trail_id, name, type, coalesce(target_artifact, ''), coalesce(artifact_fingerprint, ''), created_at, seq
           FROM attestations WHERE flow_id = ANY($1::text[])`,
        [ids],
      );
      await client.query(
        `UPDATE flows f SET trail_count = c.n, latest_activity_at = c.latest,
                latest_state = (SELECT compliance_state FROM trails WHERE flow_id = f.id ORDER BY last_modified_at DESC, rowid DESC LIMIT 1)
           FROM (SELECT flow_id, count(*) AS n, max(last_modified_at) AS latest FROM trails WHERE flow_id = ANY($1::text[]) GROUP BY flow_id) c
          WHERE f.id = c.flow_id`,
        [ids],
      );
      await client.query(
        `UPDATE orgs SET live_flows = (SELECT count(*) FROM flows WHERE org_id = orgs.id AND archived_at IS NULL),
                         live_trails = (SELECT coalesce(sum(trail_count), 0) FROM flows WHERE org_id = orgs.id AND archived_at IS NULL)`,
      );
      await client.query('COMMIT');
    }
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

/** uniquePrefix for a PostgreSQL database. */
export async function uniquePrefixPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let index = 0; ; index++) {
      const row = (
        await client.query<{ fingerprint: string }>('SELECT fingerprint FROM artifacts WHERE id = $1', [
          `artifact-${index * 7}`,
        ])
      ).rows[0];
      if (row === undefined) throw new Error('no seeded artifact');
      const prefix = row.fingerprint.slice(0, 8);
      const bound = `${prefix}\u{10FFFF}`;
      const count = async (column: string): Promise<number> =>
        Number(
          // count(*) is a bigint, which the client gives as text.
          (
            await client.query<{ n: string }>(
              `SELECT count(*) AS n FROM artifacts WHERE ${column} >= $1 AND ${column} < $2`,
              [prefix, bound],
            )
          ).rows[0].n,
        );
      if ((await count('fingerprint')) === 1 && (await count('lower(git_commit)')) === 0) return prefix;
    }
  } finally {
    await client.end();
  }
}

/**
 * Scan attestations POSTed at `connections` concurrent requests (spread over the servers) to one
 * trail of a flow created for it: req/s and p99, after a one-second warm-up.
 */
export async function scanWrites(servers: TestServer[], flow: string, connections = 50): Promise<Measure> {
  const first = servers[0];
  const created = await first.multipart('PUT', '/api/v2/flows/acme/template_file', {
    data_json: JSON.stringify({ name: flow }),
    template_file: {
      filename: 't.yml',
      content: 'version: 1\ntrail:\n  attestations:\n    - name: scan-0\n      type: scan\n',
    },
  });
  if (created.status !== 201) throw new Error(`create flow: ${created.status} ${created.text}`);
  await beginTrail(first, 'acme', flow, 'build-1');
  const { body, contentType } = multipart(scanData(0));
  const url = servers.map((server) => `${server.url}/api/v2/attestations/acme/${flow}/trail/build-1/scan`);
  const options = {
    url: url.length === 1 ? url[0] : url,
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${first.key}`, 'content-type': contentType },
    connections,
  };
  const warm = await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: SECONDS });
  if (warm.non2xx + warm.errors + result.non2xx + result.errors > 0)
    throw new Error(`scan attestations: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    requests: warm.requests.total + result.requests.total,
  };
}

/** Busy time of the whole machine (all cores), from /proc/stat: read before and after a measurement. */
export function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** The fields of /proc/<pid>/stat after the command name (the state is field 0, the parent 1). */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds a process has used so far (user + system), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds so far of a process and of each of its children (PostgreSQL's server and the
 * backend of each connection), by pid: compare two readings with cpuSecondsSince.
 */
export function treeCpuSeconds(pid: number): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(entry);
      if (Number(entry) === pid || Number(fields[1]) === pid)
        seconds.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return seconds;
}

/** CPU seconds used between two readings of treeCpuSeconds (a process started in between counts whole; one ended is lost). */
export function cpuSecondsSince(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

// Seeding a store to a size for the scale benchmarks (issues 9, 10 and 27), in batched SQL on
// either engine, copying rows the API wrote (writeTemplates), so seeding takes minutes. At size N:
// N trails in flows of 100 (flow-000000...), each with one artifact and one attestation; a big flow
// of N / 10 more (its artifacts in one repo), for the deep pages of one flow's lists; and an
// environment of N / 10 snapshots of one event each. Rows are numbered as the store numbers them
// (migrations 241-244): each batch's rows go after every row before it, in the lists' orders.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { TestServer } from '../api/harness.ts';
import {
  attest,
  attestArtifact,
  beginTrail,
  commit,
  createEnvironment,
  createFlow,
  fingerprint,
  WORKED_TEMPLATE,
} from '../api/fixtures.ts';
import { nameSortKey } from '../../server/api/store/sortKey.ts';

export const TRAILS_PER_FLOW = 100;
/** The big flow holds one trail for every BIG_SHARE of the others; the environment as many snapshots. */
export const BIG_SHARE = 10;
export const BIG_FLOW = 'flow-big';
export const BIG_REPO = 'monorepo';
export const ENVIRONMENT = 'prod';
/** Rows per seeding transaction: bounds the WAL between checkpoints. */
const SEED_BATCH = 100_000;

export const flowName = (index: number): string => `flow-${String(index).padStart(6, '0')}`;

/** A K8S report of one pod running `label`'s image. */
function onePod(label: string): Record<string, unknown> {
  return {
    artifacts: [
      {
        podName: `pod-${label}`,
        namespace: 'prod',
        creationTimestamp: 1_700_000_000,
        digests: { [`registry.example/${label}:1`]: fingerprint(label) },
      },
    ],
  };
}

/** The rows every seeded row copies: a flow, a trail, an artifact, an attestation, a snapshot and an event the API wrote. */
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
  await createFlow(server, 'acme', BIG_FLOW, WORKED_TEMPLATE);
  // Two snapshots: the second (one artifact started, one exited) is the one copied.
  await createEnvironment(server, 'acme', ENVIRONMENT);
  for (const label of ['first', 'second']) {
    const report = await server.json('PUT', `/api/v2/environments/acme/${ENVIRONMENT}/report/K8S`, onePod(label));
    if (report.status !== 200) throw new Error(`template report: ${report.status} ${report.text}`);
  }
}

/**
 * Numbering of the rows a batch added (those after `after` in insertion order), after every row
 * before them: the numbers go into a table first (`select`), then onto the rows (`update`).
 * PostgreSQL would otherwise read each row's partition's greatest number while the same statement
 * updated the rows before it, and that read walks back over every new version already written
 * (invisible to the statement, but in the index): 20,000 trails took 119 s.
 */
const NUMBERED = {
  trails: {
    select: `SELECT id,
                    row_number() OVER (PARTITION BY flow_id ORDER BY created_at, rowid)
                      + (SELECT coalesce(max(flow_pos), 0) FROM trails p WHERE p.flow_id = b.flow_id) AS flow_pos,
                    row_number() OVER (PARTITION BY org_id ORDER BY created_at, rowid)
                      + (SELECT coalesce(max(org_pos), 0) FROM trails p WHERE p.org_id = b.org_id) AS org_pos
               FROM trails b WHERE rowid > ?`,
    update: 'UPDATE trails SET flow_pos = n.flow_pos, org_pos = n.org_pos FROM numbered n WHERE trails.id = n.id',
  },
  artifacts: {
    select: `SELECT seq,
                    row_number() OVER (PARTITION BY flow_id ORDER BY created_at, seq)
                      + (SELECT coalesce(max(flow_pos), 0) FROM artifacts p WHERE p.flow_id = b.flow_id) AS flow_pos,
                    row_number() OVER (PARTITION BY org_id ORDER BY created_at, seq)
                      + (SELECT coalesce(max(org_pos), 0) FROM artifacts p WHERE p.org_id = b.org_id) AS org_pos,
                    CASE WHEN repo_name IS NULL THEN 0
                         ELSE row_number() OVER (PARTITION BY org_id, repo_name ORDER BY created_at, seq)
                           + (SELECT coalesce(max(repo_pos), 0) FROM artifacts p WHERE p.org_id = b.org_id AND p.repo_name = b.repo_name) END AS repo_pos
               FROM artifacts b WHERE seq > ?`,
    update: `UPDATE artifacts SET flow_pos = n.flow_pos, org_pos = n.org_pos, repo_pos = n.repo_pos
               FROM numbered n WHERE artifacts.seq = n.seq`,
  },
  attestations: {
    select: `SELECT seq, row_number() OVER (PARTITION BY flow_id ORDER BY seq)
                           + (SELECT coalesce(max(flow_pos), 0) FROM attestations p WHERE p.flow_id = b.flow_id) AS flow_pos
               FROM attestations b WHERE seq > ?`,
    update: 'UPDATE attestations SET flow_pos = n.flow_pos FROM numbered n WHERE attestations.seq = n.seq',
  },
};

const COUNTS_RENEWED = [
  'DELETE FROM attestation_counts',
  'INSERT INTO attestation_counts (flow_id, n) SELECT flow_id, max(flow_pos) FROM attestations GROUP BY flow_id',
];

/** The insertion order each batch's numbering starts after. */
const LAST_INSERTED =
  'SELECT (SELECT max(rowid) FROM trails) AS trails, (SELECT max(seq) FROM artifacts) AS artifacts, (SELECT max(seq) FROM attestations) AS attestations';

/**
 * The seeding statements of one engine, in its words: `series` numbers i from the first parameter
 * up to (not including) the second; `hex(bytes)` is random hex.
 */
function seedStatements(series: (variable: string) => string, hex: (bytes: number) => string) {
  const trail = (variable: string, id: string, flow: string, createdAt: string) =>
    `${series(variable)} INSERT INTO trails (id, org_id, flow_id, name, description, template_id, template_content, template, body, created_by, created_at, last_modified_at,
                                   compliance_state)
     SELECT ${id}, s.org_id, ${flow}, ${id}, s.description, s.template_id, s.template_content, s.template, s.body,
            s.created_by, s.created_at + ${createdAt}, s.created_at + ${createdAt}, s.compliance_state
       FROM n, (SELECT * FROM trails WHERE name = 'template-trail') s`;
  const artifact = (variable: string, id: string, trail: string, flow: string, repo: string, createdAt: string) =>
    `${series(variable)} INSERT INTO artifacts (id, org_id, flow_id, trail_id, fingerprint, template_reference_name, filename, git_commit, repo_name, body, created_at, last_modified_at)
     SELECT ${id}, s.org_id, ${flow}, ${trail}, ${hex(32)}, s.template_reference_name, s.filename,
            ${hex(20)}, ${repo}, s.body, s.created_at + ${createdAt}, s.created_at + ${createdAt}
       FROM n, (SELECT * FROM artifacts WHERE filename = 'cli' LIMIT 1) s`;
  const attestation = (variable: string, id: string, trail: string, flow: string, createdAt: string) =>
    `${series(variable)} INSERT INTO attestations (id, org_id, flow_id, trail_id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact,
                                         evidence_sha256, evidence_filename, body, reported_by, created_at)
     SELECT ${id}, s.org_id, ${flow}, ${trail}, s.name, s.type, s.is_override, s.is_compliant, NULL, NULL,
            NULL, NULL, s.body, s.reported_by, s.created_at + ${createdAt}
       FROM n, (SELECT * FROM attestations WHERE name = 'bar' LIMIT 1) s`;
  const flowOfTrail = `'flow-' || (i / ${TRAILS_PER_FLOW})`;
  const bigFlow = `(SELECT id FROM flows WHERE name = '${BIG_FLOW}' AND archived_at IS NULL)`;
  // The big flow's trail j arrives between the others' 10j and 10j + 1.
  const bigTime = `${BIG_SHARE} * j + 0.5`;
  return {
    rows: [
      trail('i', "'trail-' || i", flowOfTrail, 'i'),
      trail('j', "'big-' || j", bigFlow, bigTime),
      artifact('i', "'artifact-' || i", "'trail-' || i", flowOfTrail, 's.repo_name', 'i'),
      artifact('j', "'big-artifact-' || j", "'big-' || j", bigFlow, `'${BIG_REPO}'`, bigTime),
      attestation('i', "'attestation-' || i", "'trail-' || i", flowOfTrail, 'i'),
      attestation('j', "'big-attestation-' || j", "'big-' || j", bigFlow, bigTime),
    ],
    // Snapshot j copies the environment's second; its one event copies that snapshot's first.
    snapshots: `${series('j')} INSERT INTO snapshots (environment_id, idx, started_at, ended_at, compliant, compliance_count, applied_policies, states, artifacts, events_through)
       SELECT s.environment_id, j + 3, s.started_at + j + 1, s.started_at + j + 2, s.compliant, s.compliance_count, s.applied_policies, s.states, s.artifacts, j + 4
         FROM n, (SELECT * FROM snapshots WHERE idx = 2 AND environment_id = (SELECT id FROM environments WHERE name = '${ENVIRONMENT}')) s`,
    events: `${series('j')} INSERT INTO environment_events (environment_id, snapshot_idx, type, reported_at, artifact_name, fingerprint, description,
                                       flow_names, trail_names, git_commit, repo_names, pipeline, artifact_compliance, snapshot_compliance, env_pos)
       SELECT e.environment_id, j + 3, e.type, e.reported_at + j + 1, e.artifact_name, e.fingerprint, e.description,
              e.flow_names, e.trail_names, e.git_commit, e.repo_names, e.pipeline, e.artifact_compliance, e.snapshot_compliance, j + 4
         FROM n, (SELECT * FROM environment_events WHERE snapshot_idx = 2 AND environment_id = (SELECT id FROM environments WHERE name = '${ENVIRONMENT}')
                  ORDER BY id LIMIT 1) e`,
    environment: `UPDATE environments SET snapshot_count = ? WHERE name = '${ENVIRONMENT}'`,
  };
}

const SQLITE = seedStatements(
  (variable) =>
    `WITH RECURSIVE n(${variable}) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT ${variable} + 1 FROM n WHERE ${variable} + 1 < ?)`,
  (bytes) => `lower(hex(randomblob(${bytes})))`,
);

const POSTGRES = seedStatements(
  (variable) => `WITH n(${variable}) AS (SELECT generate_series($1::bigint, $2::bigint - 1))`,
  (bytes) => `substr(md5(random()::text) || md5(random()::text), 1, ${bytes * 2})`,
);

/** The flows trails `from` ≤ i < `to` need: ids follow the trails' 'flow-' || (i / 100), names are zero-padded to sort by number. */
function flowsOf(from: number, to: number): Array<{ id: string; name: string }> {
  const flows = [];
  for (let flow = Math.ceil(from / TRAILS_PER_FLOW); flow * TRAILS_PER_FLOW < to; flow++)
    flows.push({ id: `flow-${flow}`, name: flowName(flow) });
  return flows;
}

/** Every row of sizes `from` ≤ i < `to`, in batches, in a SQLite data directory. */
export function seedSqlite(dataDir: string, from: number, to: number): void {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'));
  db.exec('PRAGMA synchronous = OFF');
  const flows = db.prepare(
    `INSERT INTO flows (id, org_id, name, name_key, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at)
     SELECT ?, org_id, ?, ?, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at
       FROM flows WHERE name = 'template-flow'`,
  );
  for (let start = from; start < to; start += SEED_BATCH) {
    const end = Math.min(to, start + SEED_BATCH);
    const [bigStart, bigEnd] = [start / BIG_SHARE, end / BIG_SHARE];
    db.exec('BEGIN');
    const last = db.prepare(LAST_INSERTED).get() as Record<string, number>;
    for (const flow of flowsOf(start, end)) flows.run(flow.id, flow.name, nameSortKey(flow.name));
    for (const [index, statement] of SQLITE.rows.entries())
      db.prepare(statement).run(...(index % 2 === 0 ? [start, end] : [bigStart, bigEnd]));
    for (const table of ['trails', 'artifacts', 'attestations'] as const) {
      db.prepare(`CREATE TEMP TABLE numbered AS ${NUMBERED[table].select}`).run(last[table]);
      db.exec(NUMBERED[table].update);
      db.exec('DROP TABLE numbered');
    }
    for (const statement of COUNTS_RENEWED) db.exec(statement);
    db.prepare(SQLITE.snapshots).run(bigStart, bigEnd);
    db.prepare(SQLITE.events).run(bigStart, bigEnd);
    db.prepare(SQLITE.environment).run(bigEnd + 2);
    // Each copy is evaluated as its original was (same template, artifact and attestation), so it
    // takes the original's state above instead of the queue's evaluation one trail at a time.
    db.exec('DELETE FROM trails_to_evaluate');
    db.exec('COMMIT');
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
}

/** The same rows as seedSqlite, in a PostgreSQL database. */
export async function seedPostgres(url: string, from: number, to: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let start = from; start < to; start += SEED_BATCH) {
      const end = Math.min(to, start + SEED_BATCH);
      const [bigStart, bigEnd] = [start / BIG_SHARE, end / BIG_SHARE];
      const flows = flowsOf(start, end);
      const big = (await client.query<{ id: string }>('SELECT id FROM flows WHERE name = $1', [BIG_FLOW])).rows[0].id;
      const ids = [...flows.map((flow) => flow.id), big];
      await client.query('BEGIN');
      // Without the triggers, which would update the org's and each flow's counts once per row:
      // PostgreSQL keeps every version of a row a transaction updates, so the 100,000th update of
      // the org walks 100,000 versions. The counts and latest states are set once per batch below instead.
      await client.query('SET LOCAL session_replication_role = replica');
      const last = (await client.query<Record<string, number>>(LAST_INSERTED)).rows[0];
      await client.query(
        `INSERT INTO flows (id, org_id, name, name_key, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at)
         SELECT f.id, org_id, f.name, f.name_key, description, visibility, template_id, template_content, template, tags, repo_url, created_by, created_at, last_modified_at
           FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, name, name_key), (SELECT * FROM flows WHERE name = 'template-flow') s`,
        [flows.map((flow) => flow.id), flows.map((flow) => flow.name), flows.map((flow) => nameSortKey(flow.name))],
      );
      for (const [index, statement] of POSTGRES.rows.entries())
        await client.query(statement, index % 2 === 0 ? [start, end] : [bigStart, bigEnd]);
      // Statistics that know the batch, or the numbering below joins each row by a scan of the table.
      await client.query('ANALYZE trails, artifacts, attestations');
      for (const table of ['trails', 'artifacts', 'attestations'] as const) {
        await client.query(`CREATE TEMP TABLE numbered AS ${NUMBERED[table].select.replace('?', '$1')}`, [last[table]]);
        await client.query(NUMBERED[table].update);
        await client.query('DROP TABLE numbered');
      }
      for (const statement of COUNTS_RENEWED) await client.query(statement);
      await client.query(POSTGRES.snapshots, [bigStart, bigEnd]);
      await client.query(POSTGRES.events, [bigStart, bigEnd]);
      await client.query(POSTGRES.environment.replace('?', '$1'), [bigEnd + 2]);
      // The trigger that keeps each trail's latest attestation versions is off with the others.
      await client.query(
        `INSERT INTO attestation_heads (trail_id, name, type, target_artifact, artifact_fingerprint, created_at, seq)
         SELECT trail_id, name, type, coalesce(target_artifact, ''), coalesce(artifact_fingerprint, ''), created_at, seq
           FROM attestations WHERE seq > $1`,
        [last.attestations],
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

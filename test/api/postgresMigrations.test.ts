// A PostgreSQL database that already holds environments and controls when migration 202 reaches it
// gets their sort keys and folded names as SQLite computes them (store/sortKey.ts, JavaScript's
// lowercasing), so its lists sort and search them as they do rows written after it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrations } from '../../server/api/store/migrations/index.ts';
import { applyPostgresMigrations } from '../../server/api/store/postgres/migrate.ts';
import { nameSortKey } from '../../server/api/store/sortKey.ts';
import type { Flow, Trail } from './answers.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint, WORKED_TEMPLATE } from './fixtures.ts';
import { startServer, type TestServer } from './harness.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { everyPageIsTheOffsetAnswer, postgresOracle, storyLists, writeStory } from './pageOracle.ts';

/** What each suite runs on: a PostgreSQL, an evidence directory, and the server a test started last. */
class SuiteDatabase {
  postgres!: PostgresServer;
  evidence = '';
  server?: TestServer;

  /** A server on `url` with the suite's evidence directory. */
  serverOn(url: string): Promise<TestServer> {
    return startServer({ args: ['--org', 'acme', '--database', url, '--evidence', this.evidence] });
  }
}

/** The suite's SuiteDatabase, started before its tests and stopped after them. */
function suiteDatabase(): SuiteDatabase {
  const suite = new SuiteDatabase();
  before(async () => {
    suite.postgres = await startPostgres();
    suite.evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
  });
  after(async () => {
    await suite.server?.stop();
    await suite.postgres?.stop();
    rmSync(suite.evidence, { recursive: true, force: true });
  });
  return suite;
}

/** Every row of `from` copied into the tables of `to` (the columns both have), triggers off as in a restore. */
async function copyRows(from: pg.Pool, to: pg.Pool): Promise<void> {
  const columnsOf = async (pool: pg.Pool) =>
    (
      await pool.query<{
        table_name: string;
        column_name: string;
        is_generated: string;
        identity_generation: string | null;
      }>(
        `SELECT c.table_name, c.column_name, c.identity_generation,
                CASE WHEN c.column_name = 'rowid' THEN 'YES' ELSE 'NO' END AS is_generated
           FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
          WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
          ORDER BY c.table_name, c.ordinal_position`,
      )
    ).rows;
  const source = new Set((await columnsOf(from)).map((row) => `${row.table_name}.${row.column_name}`));
  const tables = new Map<string, string[]>();
  const identities: Array<[string, string]> = [];
  for (const row of await columnsOf(to)) {
    if (!tables.has(row.table_name)) tables.set(row.table_name, []);
    // A table's rowid is generated, in the order the rows are copied in (their order at the source).
    if (row.is_generated === 'YES' || !source.has(`${row.table_name}.${row.column_name}`)) continue;
    tables.get(row.table_name)!.push(row.column_name);
    if (row.identity_generation !== null) identities.push([row.table_name, row.column_name]);
  }
  const client = await to.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    for (const [table, columns] of tables) {
      if (columns.length === 0) continue;
      const list = columns.map((column) => `"${column}"`).join(', ');
      const order = source.has(`${table}.rowid`) ? ' ORDER BY rowid' : '';
      for (const row of (await from.query<Record<string, unknown>>(`SELECT ${list} FROM ${table}${order}`)).rows)
        await client.query(
          `INSERT INTO ${table} (${list}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
          columns.map((column) => row[column]),
        );
    }
    for (const [table, column] of identities)
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), (SELECT max("${column}") FROM ${table}), true)
          WHERE EXISTS (SELECT 1 FROM ${table})`,
      );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** Names whose binary order is not the order the lists sort in. */
const ENVIRONMENTS = ['beta', 'Alpha', 'alpha-2', 'Émile', 'zulu', '_first', 'Zeta', 'éclair'];

describe('PostgreSQL: migration 202 on a database with environments and controls', function () {
  this.timeout(60_000);
  const suite = suiteDatabase();

  it('backfills the name keys and folded names of the rows already there', async () => {
    const url = await suite.postgres.createDatabase('before202');
    const pool = new pg.Pool({ connectionString: url });
    try {
      await applyPostgresMigrations(
        pool,
        migrations.filter((migration) => migration.id < '202'),
      );
      const org = await pool.query<{ id: number }>(
        `INSERT INTO orgs (name, features, created_at) VALUES ('acme', '{}', 0) RETURNING id`,
      );
      const orgId = org.rows[0].id;
      for (const [i, name] of ENVIRONMENTS.entries())
        await pool.query(
          `INSERT INTO environments (org_id, name, type, created_by, created_at, last_modified_at) VALUES ($1, $2, 'K8S', 'admin', $3, $3)`,
          [orgId, name, i],
        );
      await pool.query(
        `INSERT INTO controls (org_id, identifier, name, version, created_by, created_at, last_modified_at)
         VALUES ($1, 'pastry', 'ÉCLAIR Ωmega', 1, 'admin', 0, 0), ($1, 'plain', 'Plain Control', 1, 'admin', 0, 0)`,
        [orgId],
      );
    } finally {
      await pool.end();
    }

    suite.server = await suite.serverOn(url);
    const listed = await suite.server.get('/api/v2/environments/acme?sort=name');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body as Array<{ name: string }>).map((environment) => environment.name),
      // The order of a list of environments written after the migration: by their names' sort keys.
      [...ENVIRONMENTS].sort((a, b) => (nameSortKey(a) < nameSortKey(b) ? -1 : 1)),
    );
    const found = async (search: string): Promise<string[]> =>
      (
        (await suite.server!.get(`/api/v2/controls/acme?search=${encodeURIComponent(search)}`)).body as {
          controls: Array<{ identifier: string }>;
        }
      ).controls.map((control) => control.identifier);
    assert.deepEqual(await found('éclair ω'), ['pastry']);
    assert.deepEqual(await found('plain c'), ['plain']);
  });
});

// Migration 203 evaluates the trails already there (its backfill, in JavaScript, on either engine).
// A database at migration 202 gets rows the API wrote (in a database migrated to the latest,
// copied column by column), two of them damaged; once migrated, each trail's stored state is what
// its answer evaluates on read, and a trail with a damaged row stores none and lists as the
// placeholder it was.
describe('PostgreSQL: migration 203 on a database with trails', function () {
  this.timeout(120_000);
  const suite = suiteDatabase();

  /** Trails of every state, written through the API into a database migrated to the latest. */
  async function writeTrails(url: string): Promise<void> {
    const source = await suite.serverOn(url);
    try {
      await createFlow(source, 'acme', 'release', WORKED_TEMPLATE);
      const artifact = (trail: string, label = trail) =>
        attestArtifact(source, 'acme', 'release', {
          fingerprint: fingerprint(label),
          filename: 'cli',
          git_commit: commit(trail),
          trail_name: trail,
          template_reference_name: 'cli',
        });
      const attested = async (trail: string, data: Record<string, unknown>) =>
        assert.equal((await attest(source, 'acme', 'release', trail, 'generic', data)).status, 201);
      for (const trail of [
        'begun',
        'complete',
        'failing',
        'versions',
        'rebuilt',
        'broken-attestation',
        'broken-artifact',
      ])
        await beginTrail(source, 'acme', 'release', trail);
      await attested('broken-attestation', { attestation_name: 'bar' });
      await artifact('broken-artifact');
      await artifact('complete');
      await attested('complete', { attestation_name: 'bar' });
      await attested('complete', { attestation_name: 'foo', artifact_fingerprint: fingerprint('complete') });
      await attested('failing', { attestation_name: 'bar', is_compliant: false });
      // The latest version of a name counts, whatever came before it.
      await attested('versions', { attestation_name: 'bar', is_compliant: false });
      await attested('versions', { attestation_name: 'bar' });
      // A new artifact in the slot: the attestation bound to the old one no longer speaks for it.
      await artifact('rebuilt', 'rebuilt-1');
      await attested('rebuilt', { attestation_name: 'bar' });
      await attested('rebuilt', { attestation_name: 'foo', artifact_fingerprint: fingerprint('rebuilt-1') });
      await artifact('rebuilt', 'rebuilt-2');
    } finally {
      await source.stop();
    }
  }

  it('stores the state each trail evaluates on read, and none for a trail with a damaged row', async () => {
    const latestUrl = await suite.postgres.createDatabase('latest203');
    await writeTrails(latestUrl);
    const url = await suite.postgres.createDatabase('before203');
    const latest = new pg.Pool({ connectionString: latestUrl });
    const before = new pg.Pool({ connectionString: url });
    try {
      await applyPostgresMigrations(
        before,
        migrations.filter((migration) => migration.id < '203'),
      );
      await copyRows(latest, before);
      await before.query(
        `UPDATE attestations SET body = '{"damaged' WHERE trail_id = (SELECT id FROM trails WHERE name = 'broken-attestation')`,
      );
      await before.query(
        `UPDATE artifacts SET body = 'nope' WHERE trail_id = (SELECT id FROM trails WHERE name = 'broken-artifact')`,
      );
    } finally {
      await latest.end();
    }

    try {
      suite.server = await suite.serverOn(url);
      const stored = new Map(
        (
          await before.query<{ name: string; compliance_state: string | null }>(
            'SELECT name, compliance_state FROM trails',
          )
        ).rows.map((row) => [row.name, row.compliance_state]),
      );
      const listed = (
        await suite.server.get<Array<Trail | { placeholder: true; id: string }>>('/api/v2/trails/acme/release')
      ).body;
      const evaluated = new Map<string, string>();
      for (const item of listed) if ('name' in item) evaluated.set(item.name, item.compliance_status.status);
      assert.deepEqual(Object.fromEntries(evaluated), {
        begun: 'INCOMPLETE',
        complete: 'COMPLIANT',
        failing: 'NON-COMPLIANT',
        versions: 'INCOMPLETE',
        rebuilt: 'INCOMPLETE',
      });
      for (const [name, state] of evaluated) assert.equal(stored.get(name), state, `stored state of ${name}`);
      assert.equal(stored.get('broken-attestation'), null);
      assert.equal(stored.get('broken-artifact'), null);
      assert.equal(listed.filter((item) => 'placeholder' in item).length, 2, 'the damaged trails list as placeholders');
      // The flow's latest state is its latest trail's (rebuilt, the last one written to).
      const flow = (await suite.server.get<Flow>('/api/v2/flows/acme/release')).body;
      assert.equal(flow.latest_state, 'INCOMPLETE');
      assert.equal(
        (await before.query<{ latest_state: string }>("SELECT latest_state FROM flows WHERE name = 'release'")).rows[0]
          .latest_state,
        'INCOMPLETE',
      );
    } finally {
      await before.end();
    }
  });
});

// Migrations 240-244 number the rows of every paged list already there (issue 27). The story of
// pageOracle.ts, written through two instances (one with its clock an hour behind) into a database
// migrated to the latest, is copied into one at migration 239, which a server then migrates: every
// page is then the OFFSET answer, and numbering the rows moved no trail's stored state or version.
describe('PostgreSQL: migrations 240-244 on a database with every paged list', function () {
  this.timeout(180_000);
  const suite = suiteDatabase();

  it('numbers the rows already there: every page is the OFFSET answer', async () => {
    const latestUrl = await suite.postgres.createDatabase('latest240');
    const instances = [
      await suite.serverOn(latestUrl),
      await startServer({
        args: ['--org', 'acme', '--database', latestUrl, '--evidence', suite.evidence],
        clockShiftSeconds: -3600,
      }),
    ];
    let times;
    try {
      times = await writeStory(
        () => Promise.resolve(instances[0]),
        () => Promise.resolve(instances[1]),
        instances,
      );
    } finally {
      for (const instance of instances) await instance.stop();
    }
    const url = await suite.postgres.createDatabase('before240');
    const latest = new pg.Pool({ connectionString: latestUrl });
    const before = new pg.Pool({ connectionString: url });
    const trailStates = 'SELECT name, compliance_state, version FROM trails ORDER BY name';
    let kept;
    try {
      await applyPostgresMigrations(
        before,
        migrations.filter((migration) => migration.id < '240'),
      );
      await copyRows(latest, before);
      kept = (await before.query(trailStates)).rows;
    } finally {
      await latest.end();
      await before.end();
    }
    suite.server = await suite.serverOn(url);
    const oracle = postgresOracle(url);
    try {
      for (const list of storyLists(times)) await everyPageIsTheOffsetAnswer(suite.server, oracle, list, [1, 4]);
      assert.deepEqual(await oracle.rows(trailStates, []), kept, 'no trail state or version moved');
    } finally {
      await oracle.close();
    }
  });
});

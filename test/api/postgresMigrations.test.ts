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
import { startServer, type TestServer } from './harness.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';

/** Names whose binary order is not the order the lists sort in. */
const ENVIRONMENTS = ['beta', 'Alpha', 'alpha-2', 'Émile', 'zulu', '_first', 'Zeta', 'éclair'];

describe('PostgreSQL: migration 202 on a database with environments and controls', function () {
  this.timeout(60_000);
  let postgres: PostgresServer;
  let server: TestServer | undefined;
  let evidence: string;

  before(async () => {
    postgres = await startPostgres();
    evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
  });
  after(async () => {
    await server?.stop();
    await postgres?.stop();
    rmSync(evidence, { recursive: true, force: true });
  });

  it('backfills the name keys and folded names of the rows already there', async () => {
    const url = await postgres.createDatabase('before202');
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

    server = await startServer({ args: ['--org', 'acme', '--database', url, '--evidence', evidence] });
    const listed = await server.get('/api/v2/environments/acme?sort=name');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body as Array<{ name: string }>).map((environment) => environment.name),
      // The order of a list of environments written after the migration: by their names' sort keys.
      [...ENVIRONMENTS].sort((a, b) => (nameSortKey(a) < nameSortKey(b) ? -1 : 1)),
    );
    const found = async (search: string): Promise<string[]> =>
      (
        (await server!.get(`/api/v2/controls/acme?search=${encodeURIComponent(search)}`)).body as {
          controls: Array<{ identifier: string }>;
        }
      ).controls.map((control) => control.identifier);
    assert.deepEqual(await found('éclair ω'), ['pastry']);
    assert.deepEqual(await found('plain c'), ['plain']);
  });
});

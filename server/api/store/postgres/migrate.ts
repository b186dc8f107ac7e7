// Applies the numbered migrations (the same list SQLite runs) that the database has not seen, each
// in its own transaction under an advisory lock, so that instances starting at once take turns:
// the first applies a migration, the others find it applied.
import type pg from 'pg';
import type { Migration } from '../migrations/index.ts';
import { COMPAT_FUNCTIONS } from './compat.ts';
import type { Param, Row, Statements } from '../db.ts';
import { postgresMigration, postgresStatement } from './dialect.ts';

const MIGRATION_LOCK = 0x63657600;

async function locked(client: pg.PoolClient, work: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await work();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** The store's statements on the migrating connection, so a backfill runs in the migration's transaction. */
function statementsOn(client: pg.PoolClient): Statements {
  const query = async <T extends Row>(sql: string, params: Param[]): Promise<pg.QueryResult<T>> =>
    client.query<T>(postgresStatement(sql), params as unknown[]);
  return {
    run: async (sql, ...params) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    write: async (sql, ...params) => void (await query(sql, params)),
    get: async <T extends Row>(sql: string, ...params: Param[]) => (await query<T>(sql, params)).rows[0],
    all: async <T extends Row>(sql: string, ...params: Param[]) => (await query<T>(sql, params)).rows,
    allBatched: async <T extends Row>(sql: string, ...params: Param[]) => (await query<T>(sql, params)).rows,
    allEach: async (reads) => {
      const results: Row[][] = [];
      for (const [sql, ...params] of reads) results.push((await query(sql, params)).rows);
      return results;
    },
  };
}

export async function applyPostgresMigrations(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  const client = await pool.connect();
  const ran: string[] = [];
  try {
    await locked(client, async () => {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)',
      );
      await client.query(COMPAT_FUNCTIONS);
    });
    for (const migration of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      await locked(client, async () => {
        const applied = await client.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id]);
        if (applied.rowCount !== 0) return;
        await client.query(migration.postgres ?? postgresMigration(migration.sql));
        await migration.backfill?.(statementsOn(client));
        await client.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [
          migration.id,
          Date.now() / 1000,
        ]);
        ran.push(migration.id);
      });
    }
  } finally {
    client.release();
  }
  return ran;
}

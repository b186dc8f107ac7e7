// Applies the numbered migrations of store/migrations/ that the database has not seen, each in its
// own transaction, in the order of their ids.
import type { Migration } from '../migrations/index.ts';
import { statementsOf, type SqliteConnection } from './database.ts';

export async function applySqliteMigrations(
  sql: SqliteConnection,
  migrations: readonly Migration[],
): Promise<string[]> {
  sql.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at REAL NOT NULL)');
  const applied = new Set(sql.all<{ id: string }>('SELECT id FROM schema_migrations').map((row) => row.id));
  const ran: string[] = [];
  for (const migration of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
    if (applied.has(migration.id)) continue;
    sql.db.exec('BEGIN IMMEDIATE');
    try {
      sql.db.exec(migration.sql);
      await migration.backfill?.(statementsOf(sql));
      sql.run('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', migration.id, Date.now() / 1000);
      sql.db.exec('COMMIT');
    } catch (error) {
      if (sql.db.isTransaction) sql.db.exec('ROLLBACK');
      throw error;
    }
    ran.push(migration.id);
  }
  return ran;
}

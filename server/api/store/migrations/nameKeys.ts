// Keys computed from a name in JavaScript (store/sortKey.ts, JavaScript's lowercasing), given by a
// migration to the rows already there. A backfill, not an SQL function, so that both engines run
// the same step: SQLite could call back into JavaScript from SQL, PostgreSQL cannot.
import type { Statements } from '../db.ts';

/** Sets `column` of every row of `table` to `keyOf(name)`, a statement a row (tables of names are small). */
export async function nameKeysFilled(
  statements: Statements,
  table: string,
  column: string,
  keyOf: (name: string) => string,
): Promise<void> {
  for (const row of await statements.all<{ id: number; name: string }>(`SELECT id, name FROM ${table}`))
    await statements.run(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, keyOf(String(row.name)), row.id);
}

// A migration that drops triggers and creates others (their new definitions among its SQL), in
// each engine's words: PostgreSQL drops a trigger by its table, and the function it runs with it.
import { postgresMigration } from '../postgres/dialect.ts';
import type { Migration } from './index.ts';

export function withTriggersReplaced(
  id: string,
  replaced: ReadonlyArray<readonly [trigger: string, table: string]>,
  sql: string,
): Migration {
  return {
    id,
    sql: replaced.map(([trigger]) => `DROP TRIGGER ${trigger};`).join('\n') + sql,
    postgres:
      replaced
        .map(([trigger, table]) => `DROP TRIGGER ${trigger} ON ${table}; DROP FUNCTION ${trigger}();`)
        .join('\n') + postgresMigration(sql),
  };
}

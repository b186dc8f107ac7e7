import { postgresMigration } from '../postgres/dialect.ts';
import { nameSortKey } from '../sortKey.ts';
import type { Migration } from './index.ts';

// The environment and control lists page in SQL on indexes (issue 9). Environments keep their
// name's sort key (store/sortKey.ts) and are indexed in each order the list sorts by; controls keep
// their name lowercased as JavaScript lowercases it, which the search compares with. Rows whose
// JSON cannot be read are listed as placeholders after the others, so they are indexed apart. Each
// org keeps how many live environments, live controls and archived controls it has, for the totals.
const sql = `
    ALTER TABLE environments ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
    UPDATE environments SET name_key = name_sort_key(name);
    CREATE INDEX environments_by_name_key ON environments (org_id, name_key) WHERE archived_at IS NULL;
    CREATE INDEX environments_by_modified ON environments (org_id, last_modified_at, name_key) WHERE archived_at IS NULL;
    CREATE INDEX environments_by_changed ON environments (org_id, coalesce(last_changed_at, 0), name_key) WHERE archived_at IS NULL;
    CREATE INDEX environments_unreadable ON environments (org_id, name) WHERE archived_at IS NULL AND NOT json_valid(tags);
    ALTER TABLE controls ADD COLUMN name_folded TEXT NOT NULL DEFAULT '';
    UPDATE controls SET name_folded = folded_case(name);
    CREATE INDEX controls_live ON controls (org_id, archived, identifier);
    CREATE INDEX controls_unreadable ON controls (org_id, archived, identifier) WHERE NOT (json_valid(links) AND json_valid(tags));
    ALTER TABLE orgs ADD COLUMN live_environments INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE orgs ADD COLUMN live_controls INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE orgs ADD COLUMN archived_controls INTEGER NOT NULL DEFAULT 0;
    UPDATE orgs SET
      live_environments = (SELECT count(*) FROM environments WHERE org_id = orgs.id AND archived_at IS NULL),
      live_controls = (SELECT count(*) FROM controls WHERE org_id = orgs.id AND archived = 0),
      archived_controls = (SELECT count(*) FROM controls WHERE org_id = orgs.id AND archived <> 0);
    CREATE TRIGGER count_environment_created AFTER INSERT ON environments WHEN NEW.archived_at IS NULL
      BEGIN UPDATE orgs SET live_environments = live_environments + 1 WHERE id = NEW.org_id; END;
    CREATE TRIGGER count_environment_archived AFTER UPDATE OF archived_at ON environments WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL
      BEGIN UPDATE orgs SET live_environments = live_environments - 1 WHERE id = NEW.org_id; END;
    CREATE TRIGGER count_control_created AFTER INSERT ON controls WHEN NEW.archived = 0
      BEGIN UPDATE orgs SET live_controls = live_controls + 1 WHERE id = NEW.org_id; END;
    CREATE TRIGGER count_control_archived AFTER UPDATE OF archived ON controls WHEN OLD.archived = 0 AND NEW.archived <> 0
      BEGIN UPDATE orgs SET live_controls = live_controls - 1, archived_controls = archived_controls + 1 WHERE id = NEW.org_id; END;
    CREATE TRIGGER count_control_unarchived AFTER UPDATE OF archived ON controls WHEN OLD.archived <> 0 AND NEW.archived = 0
      BEGIN UPDATE orgs SET live_controls = live_controls + 1, archived_controls = archived_controls - 1 WHERE id = NEW.org_id; END;
  `;

export const migration202: Migration = {
  id: '202-environment-and-control-lists',
  sql,
  // The keys are computed in JavaScript, which only SQLite calls back into: on PostgreSQL the
  // environments and controls a database already holds get theirs from the backfill, each table
  // in one statement.
  postgres: postgresMigration(
    sql
      .replace('UPDATE environments SET name_key = name_sort_key(name);', '')
      .replace('UPDATE controls SET name_folded = folded_case(name);', ''),
  ),
  async postgresBackfill(query) {
    const backfill = async (table: string, column: string, value: (name: string) => string): Promise<void> => {
      const rows = await query(`SELECT id, name FROM ${table}`);
      await query(
        `UPDATE ${table} SET ${column} = keyed.value FROM unnest($1::bigint[], $2::text[]) AS keyed(id, value) WHERE ${table}.id = keyed.id`,
        [rows.map((row) => row.id), rows.map((row) => value(String(row.name)))],
      );
    };
    await backfill('environments', 'name_key', nameSortKey);
    await backfill('controls', 'name_folded', (name) => name.toLowerCase());
  },
};

import { nameSortKey } from '../sortKey.ts';
import type { Migration } from './index.ts';
import { nameKeysFilled } from './nameKeys.ts';

// The environment and control lists page in SQL on indexes (issue 9). Environments keep their
// name's sort key (store/sortKey.ts) and are indexed in each order the list sorts by; controls keep
// their name lowercased as JavaScript lowercases it, which the search compares with. Rows whose
// JSON cannot be read are listed as placeholders after the others, so they are indexed apart. Each
// org keeps how many live environments, live controls and archived controls it has, for the totals.
const sql = `
    ALTER TABLE environments ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
    CREATE INDEX environments_by_name_key ON environments (org_id, name_key) WHERE archived_at IS NULL;
    CREATE INDEX environments_by_modified ON environments (org_id, last_modified_at, name_key) WHERE archived_at IS NULL;
    CREATE INDEX environments_by_changed ON environments (org_id, coalesce(last_changed_at, 0), name_key) WHERE archived_at IS NULL;
    CREATE INDEX environments_unreadable ON environments (org_id, name) WHERE archived_at IS NULL AND NOT json_valid(tags);
    ALTER TABLE controls ADD COLUMN name_folded TEXT NOT NULL DEFAULT '';
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
  async backfill(statements) {
    await nameKeysFilled(statements, 'environments', 'name_key', nameSortKey);
    await nameKeysFilled(statements, 'controls', 'name_folded', (name) => name.toLowerCase());
  },
};

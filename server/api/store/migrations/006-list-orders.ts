import { nameSortKey } from '../sortKey.ts';
import { nameKeysFilled } from './nameKeys.ts';
import type { Migration } from './index.ts';

// Lists page in SQL on indexes (issue 9). Flows keep their name's sort key (store/sortKey.ts) and
// their latest activity, the latest last_modified_at of their trails, kept up to date on write.
// Artifacts are listed newest first, by org, flow or repo. Search takes fingerprint and commit
// prefixes as index ranges.
const sql = `
    ALTER TABLE flows ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
    ALTER TABLE flows ADD COLUMN latest_activity_at REAL;
    UPDATE flows SET latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = flows.id);
    CREATE INDEX flows_by_name_key ON flows (org_id, name_key) WHERE archived_at IS NULL;
    CREATE INDEX flows_by_activity ON flows (org_id, coalesce(latest_activity_at, 0), name_key) WHERE archived_at IS NULL;
    CREATE TRIGGER flow_activity_on_trail AFTER INSERT ON trails
      BEGIN UPDATE flows SET latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = NEW.flow_id) WHERE id = NEW.flow_id; END;
    CREATE TRIGGER flow_activity_on_trail_update AFTER UPDATE OF last_modified_at ON trails
      BEGIN UPDATE flows SET latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = NEW.flow_id) WHERE id = NEW.flow_id; END;
    CREATE INDEX artifacts_by_org_created ON artifacts (org_id, created_at, seq);
    CREATE INDEX artifacts_by_flow_created ON artifacts (flow_id, created_at, seq);
    CREATE INDEX artifacts_by_repo_created ON artifacts (org_id, repo_name, created_at, seq);
    CREATE INDEX artifacts_by_commit_prefix ON artifacts (org_id, lower(git_commit));
  `;

export const migration006: Migration = {
  id: '006-list-orders',
  sql,
  backfill: (statements) => nameKeysFilled(statements, 'flows', 'name_key', nameSortKey),
};

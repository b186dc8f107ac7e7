import type { Migration } from './index.ts';

// List totals without counting the list (issue 9): each org keeps how many live flows and how
// many trails of live flows it has, each flow how many trails; triggers keep them on every write.
export const migration007: Migration = {
  id: '007-list-counts',
  sql: `
    ALTER TABLE orgs ADD COLUMN live_flows INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE orgs ADD COLUMN live_trails INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE flows ADD COLUMN trail_count INTEGER NOT NULL DEFAULT 0;
    UPDATE flows SET trail_count = (SELECT count(*) FROM trails WHERE flow_id = flows.id);
    UPDATE orgs SET
      live_flows = (SELECT count(*) FROM flows WHERE org_id = orgs.id AND archived_at IS NULL),
      live_trails = (SELECT coalesce(sum(trail_count), 0) FROM flows WHERE org_id = orgs.id AND archived_at IS NULL);
    CREATE TRIGGER count_flow_created AFTER INSERT ON flows WHEN NEW.archived_at IS NULL
      BEGIN UPDATE orgs SET live_flows = live_flows + 1 WHERE id = NEW.org_id; END;
    CREATE TRIGGER count_flow_archived AFTER UPDATE OF archived_at ON flows WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL
      BEGIN UPDATE orgs SET live_flows = live_flows - 1, live_trails = live_trails - NEW.trail_count WHERE id = NEW.org_id; END;
    CREATE TRIGGER count_trail_created AFTER INSERT ON trails
      BEGIN
        UPDATE flows SET trail_count = trail_count + 1 WHERE id = NEW.flow_id;
        UPDATE orgs SET live_trails = live_trails + 1 WHERE id = NEW.org_id AND (SELECT archived_at FROM flows WHERE id = NEW.flow_id) IS NULL;
      END;
  `,
};

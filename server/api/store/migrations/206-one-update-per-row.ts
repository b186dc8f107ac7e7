import { postgresMigration } from '../postgres/dialect.ts';
import type { Migration } from './index.ts';

// A write updates its trail's row and its flow's row once each where it can (issue 10). Each
// attestation moved its trail's version three times (its row, its event, the trail's activity)
// and its flow's row four times (once per trail version, once for the activity): on PostgreSQL
// every update of a row is a new version of it, and the trail and flow rows of a busy pipeline are
// the hottest of all.
//
// Writes to a trail's rows (an attestation, an artifact or an event added, its activity moved)
// now queue the trail (trails_to_evaluate), and the store moves each queued trail's version once,
// with its compliance state, when it evaluates the queue before the transaction ends
// (store/trailStates.ts): a version that moves once per transaction tells a render cache what
// one that moves three times did. What changes rows behind the server's writes (a template or an
// artifact changed in place, a description) still moves the version at once. A flow's version,
// latest activity and latest state are set by one update of its row, when its trail's version or
// state moves, and when a trail begins (with its trail count). Names are kept where a trigger
// replaces one of migration 203.
const replaced: ReadonlyArray<[trigger: string, table: string]> = [
  ['trail_version_on_event', 'trail_events'],
  ['trail_version_on_attestation', 'attestations'],
  ['trail_version_on_artifact', 'artifacts'],
  ['trail_version_on_update', 'trails'],
  ['flow_version_on_trail', 'trails'],
  ['flow_version_on_trail_version', 'trails'],
  ['count_trail_created', 'trails'],
  ['flow_activity_on_trail', 'trails'],
  ['flow_activity_on_trail_update', 'trails'],
];

const FLOW_ACTIVITY = `version = version + 1,
                         latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = NEW.flow_id),
                         latest_state = (SELECT compliance_state FROM trails WHERE flow_id = NEW.flow_id ORDER BY last_modified_at DESC, rowid DESC LIMIT 1)`;

const sql = `
    CREATE TRIGGER trail_state_on_event AFTER INSERT ON trail_events
      BEGIN INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id); END;
    CREATE TRIGGER trail_state_on_activity AFTER UPDATE OF last_modified_at ON trails
      BEGIN INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.id); END;
    CREATE TRIGGER trail_version_on_update AFTER UPDATE OF description, body, template, template_id, template_content ON trails
      BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.id; END;
    CREATE TRIGGER flow_activity_on_trail AFTER INSERT ON trails
      BEGIN
        UPDATE flows SET trail_count = trail_count + 1, ${FLOW_ACTIVITY} WHERE id = NEW.flow_id;
        UPDATE orgs SET live_trails = live_trails + 1 WHERE id = NEW.org_id AND (SELECT archived_at FROM flows WHERE id = NEW.flow_id) IS NULL;
      END;
    CREATE TRIGGER flow_activity_on_trail_update AFTER UPDATE OF version, compliance_state ON trails
      BEGIN UPDATE flows SET ${FLOW_ACTIVITY} WHERE id = NEW.flow_id; END;
  `;

export const migration206: Migration = {
  id: '206-one-update-per-row',
  sql: replaced.map(([trigger]) => `DROP TRIGGER ${trigger};`).join('\n') + sql,
  // PostgreSQL drops a trigger by its table, and its function with it.
  postgres:
    replaced.map(([trigger, table]) => `DROP TRIGGER ${trigger} ON ${table}; DROP FUNCTION ${trigger}();`).join('\n') +
    postgresMigration(sql),
};

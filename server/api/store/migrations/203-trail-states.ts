import { postgresMigration } from '../postgres/dialect.ts';
import { evaluateEveryTrail } from '../trailStates.ts';
import type { Migration } from './index.ts';

// Derived values a list shows are kept on write (issue 9): each trail keeps its compliance_state
// and each flow the state of its latest trail (latest_state), so the flow list reads them instead
// of evaluating a trail per row.
//
// Any write to the rows a trail is evaluated from queues the trail (trails_to_evaluate); the store
// evaluates the queue before the transaction that wrote ends (store/trailStates.ts). A state
// depends only on the latest version of each attestation (by name, type, and the artifact it is
// bound to) and the latest artifact of each template slot, so each trail keeps its attestations'
// latest versions (attestation_heads) and a write reads those, not every version the trail ever
// had. Rows whose JSON cannot be read are indexed apart: a trail holding one keeps no state. An
// update of a trail's rows also clears its stored state at once, so a row changed behind the
// server, or left unreadable, is evaluated on read as before and a damaged row still shows as the
// placeholder it was. Existing trails are evaluated by the backfill below.
const sql = `
    ALTER TABLE trails ADD COLUMN compliance_state TEXT;
    ALTER TABLE flows ADD COLUMN latest_state TEXT;
    -- The list's default order by activity is newest first, then by name: an index in that order
    -- pages without sorting the flows of equal activity (every flow without trails, say).
    CREATE INDEX flows_by_activity_desc ON flows (org_id, coalesce(latest_activity_at, 0) DESC, name_key) WHERE archived_at IS NULL;
    CREATE TABLE trails_to_evaluate (
      trail_id TEXT NOT NULL
    );
    CREATE TABLE attestation_heads (
      trail_id TEXT NOT NULL,
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      target_artifact TEXT NOT NULL,
      artifact_fingerprint TEXT NOT NULL,
      created_at REAL NOT NULL,
      seq INTEGER NOT NULL,
      PRIMARY KEY (trail_id, name, type, target_artifact, artifact_fingerprint)
    );
    INSERT INTO attestation_heads (trail_id, name, type, target_artifact, artifact_fingerprint, created_at, seq)
      SELECT trail_id, name, type, target_artifact, artifact_fingerprint, created_at, seq FROM (
        SELECT trail_id, name, type, coalesce(target_artifact, '') AS target_artifact,
               coalesce(artifact_fingerprint, '') AS artifact_fingerprint, created_at, seq,
               row_number() OVER (PARTITION BY trail_id, name, type, coalesce(target_artifact, ''), coalesce(artifact_fingerprint, '')
                                  ORDER BY created_at DESC, seq DESC) AS latest
          FROM attestations) versions
       WHERE latest = 1;
    CREATE INDEX attestations_unreadable ON attestations (trail_id) WHERE NOT json_valid(body);
    CREATE INDEX artifacts_unreadable ON artifacts (trail_id) WHERE NOT json_valid(body);
    CREATE INDEX artifacts_by_trail_slot ON artifacts (trail_id, template_reference_name, created_at, seq);
    CREATE TRIGGER attestation_head AFTER INSERT ON attestations
      BEGIN
        INSERT INTO attestation_heads (trail_id, name, type, target_artifact, artifact_fingerprint, created_at, seq)
          VALUES (NEW.trail_id, NEW.name, NEW.type, coalesce(NEW.target_artifact, ''), coalesce(NEW.artifact_fingerprint, ''), NEW.created_at, NEW.seq)
          ON CONFLICT (trail_id, name, type, target_artifact, artifact_fingerprint)
          DO UPDATE SET created_at = excluded.created_at, seq = excluded.seq WHERE excluded.created_at >= attestation_heads.created_at;
      END;
    CREATE TRIGGER trail_state_on_trail AFTER INSERT ON trails
      BEGIN INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.id); END;
    CREATE TRIGGER trail_state_on_trail_update AFTER UPDATE OF template, template_id, body ON trails
      BEGIN
        INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.id);
        UPDATE trails SET compliance_state = NULL WHERE id = NEW.id;
      END;
    CREATE TRIGGER trail_state_on_attestation AFTER INSERT ON attestations
      BEGIN INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id); END;
    CREATE TRIGGER trail_state_on_attestation_update AFTER UPDATE ON attestations
      BEGIN
        INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id);
        UPDATE trails SET compliance_state = NULL WHERE id = NEW.trail_id;
      END;
    CREATE TRIGGER trail_state_on_artifact AFTER INSERT ON artifacts
      BEGIN INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id); END;
    CREATE TRIGGER trail_state_on_artifact_update AFTER UPDATE ON artifacts
      BEGIN
        INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id);
        UPDATE trails SET compliance_state = NULL WHERE id = NEW.trail_id;
      END;
    -- A flow's latest activity and latest state are set by one update of its row (a write to a
    -- trail moves its last_modified_at, so this runs on nearly every write).
    DROP TRIGGER flow_activity_on_trail;
    DROP TRIGGER flow_activity_on_trail_update;
    CREATE TRIGGER flow_activity_on_trail AFTER INSERT ON trails
      BEGIN
        UPDATE flows SET latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = NEW.flow_id),
                         latest_state = (SELECT compliance_state FROM trails WHERE flow_id = NEW.flow_id ORDER BY last_modified_at DESC, rowid DESC LIMIT 1)
          WHERE id = NEW.flow_id;
      END;
    CREATE TRIGGER flow_activity_on_trail_update AFTER UPDATE OF compliance_state, last_modified_at ON trails
      BEGIN
        UPDATE flows SET latest_activity_at = (SELECT max(last_modified_at) FROM trails WHERE flow_id = NEW.flow_id),
                         latest_state = (SELECT compliance_state FROM trails WHERE flow_id = NEW.flow_id ORDER BY last_modified_at DESC, rowid DESC LIMIT 1)
          WHERE id = NEW.flow_id;
      END;
  `;

export const migration203: Migration = {
  id: '203-trail-states',
  sql,
  // PostgreSQL drops a trigger by its table, and its function with it.
  postgres: postgresMigration(sql)
    .replace(
      'DROP TRIGGER flow_activity_on_trail;',
      'DROP TRIGGER flow_activity_on_trail ON trails; DROP FUNCTION flow_activity_on_trail();',
    )
    .replace(
      'DROP TRIGGER flow_activity_on_trail_update;',
      'DROP TRIGGER flow_activity_on_trail_update ON trails; DROP FUNCTION flow_activity_on_trail_update();',
    ),
  // Evaluating a trail is JavaScript (the shared core), so existing trails are evaluated here, in
  // the migration's transaction, on either engine.
  backfill: evaluateEveryTrail,
};

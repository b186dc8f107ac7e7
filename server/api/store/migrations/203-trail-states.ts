import { evaluateEveryTrail } from '../trailStates.ts';
import type { Migration } from './index.ts';

// Derived values a list shows are kept on write (issue 9): each trail keeps its compliance_state
// and each flow the state of its latest trail (latest_state), so the flow list reads them instead
// of evaluating a trail per row. Any write to the rows a trail is evaluated from queues the trail
// (trails_to_evaluate); the store evaluates the queue before the transaction that wrote ends
// (store/trailStates.ts). An update of those rows also clears the stored state at once: a row
// changed behind the server, or left unreadable, is then evaluated on read as before, so a damaged
// row still shows as the placeholder it was. Existing trails are evaluated by the backfill below.
const sql = `
    ALTER TABLE trails ADD COLUMN compliance_state TEXT;
    ALTER TABLE flows ADD COLUMN latest_state TEXT;
    CREATE TABLE trails_to_evaluate (
      trail_id TEXT NOT NULL
    );
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
    CREATE TRIGGER flow_state_on_trail AFTER INSERT ON trails
      BEGIN
        UPDATE flows SET latest_state = (SELECT compliance_state FROM trails WHERE flow_id = NEW.flow_id ORDER BY last_modified_at DESC, rowid DESC LIMIT 1)
          WHERE id = NEW.flow_id;
      END;
    CREATE TRIGGER flow_state_on_trail_update AFTER UPDATE OF compliance_state, last_modified_at ON trails
      BEGIN
        UPDATE flows SET latest_state = (SELECT compliance_state FROM trails WHERE flow_id = NEW.flow_id ORDER BY last_modified_at DESC, rowid DESC LIMIT 1)
          WHERE id = NEW.flow_id;
      END;
  `;

export const migration203: Migration = {
  id: '203-trail-states',
  sql,
  // Evaluating a trail is JavaScript (the shared core), so existing trails are evaluated here, in
  // the migration's transaction, on either engine.
  backfill: evaluateEveryTrail,
};

import { withTriggersReplaced } from './replacedTriggers.ts';

// A flow's attestations are numbered in the order they list in (seq; 1 for the oldest), so a page
// is a seek however deep it is (issue 27). Each flow's count of attestations is a row of its own:
// an attestation takes the count as its number after the update that raises it, which locks the
// row, so on PostgreSQL concurrent commits of one flow's attestations number them in the order they
// take their seq (store/attestations.ts). Not a column of the flow's row, which is wide (its
// template) and updated once per commit already (migration 206).
//
// As for artifacts (migration 242), the trigger that takes an update of a row behind the server
// for a change names the columns a change is about, so numbering the rows here is not one.
const CONTENT =
  'id, org_id, flow_id, trail_id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact, evidence_sha256, evidence_filename, body, reported_by, created_at';

export const migration243 = withTriggersReplaced(
  '243-attestation-positions',
  [['trail_state_on_attestation_update', 'attestations']],
  `
    CREATE TRIGGER trail_state_on_attestation_update AFTER UPDATE OF ${CONTENT} ON attestations
      BEGIN
        INSERT INTO trails_to_evaluate (trail_id) VALUES (NEW.trail_id);
        UPDATE trails SET compliance_state = NULL WHERE id = NEW.trail_id;
      END;
    ALTER TABLE attestations ADD COLUMN flow_pos INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE attestation_counts (
      flow_id TEXT PRIMARY KEY,
      n INTEGER NOT NULL
    );
    UPDATE attestations SET flow_pos = n.flow_pos
      FROM (SELECT seq, row_number() OVER (PARTITION BY flow_id ORDER BY seq) AS flow_pos FROM attestations) n
     WHERE attestations.seq = n.seq;
    INSERT INTO attestation_counts (flow_id, n) SELECT flow_id, count(*) FROM attestations GROUP BY flow_id;
    CREATE INDEX attestations_by_flow_pos ON attestations (flow_id, flow_pos);
  `,
);

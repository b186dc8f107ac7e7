import type { Migration } from './index.ts';

// A control's versions and its decisions, listed (reference §8.4: GET /controls/{org}/{id}/versions
// and /decisions). Each update of a control writes the version it makes (store/controls.ts); a
// control that existed before keeps only its current version, as the older ones were not kept.
//
// Decisions are `system:decision` attestations naming the control. Each is numbered among its
// control's (1 for the oldest) as it is inserted, so a page of the list is a seek however deep it is
// (issue 27's positions). The number is the control's count, raised first: on PostgreSQL the
// raise locks the count's row until commit, so attestations committed concurrently (they take the
// write lock shared) number one control's decisions one after the other.
export const migration280: Migration = {
  id: '280-control-versions-and-decisions',
  sql: `
    CREATE TABLE control_versions (
      control_id INTEGER NOT NULL REFERENCES controls(id),
      version INTEGER NOT NULL,
      name TEXT NOT NULL,
      description TEXT NOT NULL,
      links TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      PRIMARY KEY (control_id, version)
    );
    INSERT INTO control_versions (control_id, version, name, description, links, created_by, created_at)
      SELECT id, version, name, description, links, created_by, last_modified_at FROM controls;

    CREATE TABLE control_decision_counts (
      org_id INTEGER NOT NULL,
      control TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (org_id, control)
    );
    CREATE TABLE control_decisions (
      org_id INTEGER NOT NULL,
      control TEXT NOT NULL,
      pos INTEGER NOT NULL,
      attestation_id TEXT NOT NULL,
      PRIMARY KEY (org_id, control, pos)
    );
    INSERT INTO control_decisions (org_id, control, pos, attestation_id)
      SELECT org_id, control, row_number() OVER (PARTITION BY org_id, control ORDER BY seq), id
        FROM (SELECT org_id, json_extract(body, '$.control') AS control, seq, id FROM attestations
               WHERE type = 'system:decision' AND json_valid(body) AND json_extract(body, '$.control') IS NOT NULL) d;
    INSERT INTO control_decision_counts (org_id, control, n)
      SELECT org_id, control, max(pos) FROM control_decisions GROUP BY org_id, control;
    CREATE TRIGGER control_decision_numbered AFTER INSERT ON attestations WHEN NEW.type = 'system:decision' AND json_valid(NEW.body) AND json_extract(NEW.body, '$.control') IS NOT NULL
      BEGIN
        INSERT INTO control_decision_counts (org_id, control, n) VALUES (NEW.org_id, json_extract(NEW.body, '$.control'), 1)
          ON CONFLICT (org_id, control) DO UPDATE SET n = control_decision_counts.n + 1;
        INSERT INTO control_decisions (org_id, control, pos, attestation_id)
          SELECT org_id, control, n, NEW.id FROM control_decision_counts
           WHERE org_id = NEW.org_id AND control = json_extract(NEW.body, '$.control');
      END;
  `,
};

import type { Migration } from './index.ts';

// Every write that changes what a trail reads like bumps its version, whichever module writes it,
// so a rendered trail can be reused until its version moves; a flow's version moves with its own
// fields and with any of its trails, so a rendered page of its trails can be reused likewise.
export const migration003: Migration = {
  id: '003-trail-versions',
  sql: `
    ALTER TABLE trails ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    CREATE TRIGGER trail_version_on_event AFTER INSERT ON trail_events
      BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.trail_id; END;
    CREATE TRIGGER trail_version_on_attestation AFTER INSERT ON attestations
      BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.trail_id; END;
    CREATE TRIGGER trail_version_on_artifact AFTER INSERT ON artifacts
      BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.trail_id; END;
    CREATE TRIGGER trail_version_on_artifact_update AFTER UPDATE ON artifacts
      BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.trail_id; END;
    CREATE TRIGGER trail_version_on_update AFTER UPDATE OF description, body, template, template_id, template_content, last_modified_at ON trails
      BEGIN UPDATE trails SET version = version + 1 WHERE id = NEW.id; END;
    ALTER TABLE flows ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    CREATE TRIGGER flow_version_on_trail AFTER INSERT ON trails
      BEGIN UPDATE flows SET version = version + 1 WHERE id = NEW.flow_id; END;
    CREATE TRIGGER flow_version_on_trail_version AFTER UPDATE OF version ON trails
      BEGIN UPDATE flows SET version = version + 1 WHERE id = NEW.flow_id; END;
    CREATE TRIGGER flow_version_on_update AFTER UPDATE OF name, description, visibility, template_id, tags, repo_url, archived_at ON flows
      BEGIN UPDATE flows SET version = version + 1 WHERE id = NEW.id; END;
  `,
};

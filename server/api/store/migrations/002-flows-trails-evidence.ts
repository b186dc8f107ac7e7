import type { Migration } from './index.ts';

// Flows, trails, their events, artifacts, attestations and custom attestation types. Names are
// unique among live rows only: archiving frees a name (reference §1.7).
export const migration002: Migration = {
  id: '002-flows-trails-evidence',
  sql: `
    CREATE TABLE flows (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      visibility TEXT NOT NULL DEFAULT 'private',
      template_id TEXT NOT NULL,
      template_content TEXT NOT NULL,
      template TEXT NOT NULL,
      tags TEXT NOT NULL DEFAULT '{}',
      repo_url TEXT,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      archived_at REAL
    );
    CREATE UNIQUE INDEX flows_live_name ON flows (org_id, name) WHERE archived_at IS NULL;

    CREATE TABLE trails (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      flow_id TEXT NOT NULL REFERENCES flows(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      template_id TEXT NOT NULL,
      template_content TEXT NOT NULL,
      template TEXT NOT NULL,
      body TEXT NOT NULL DEFAULT '{}',
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      UNIQUE (flow_id, name)
    );
    CREATE INDEX trails_by_flow ON trails (flow_id, created_at);
    CREATE INDEX trails_by_org ON trails (org_id, created_at);
    CREATE INDEX trails_by_activity ON trails (flow_id, last_modified_at);

    CREATE TABLE trail_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      trail_id TEXT NOT NULL REFERENCES trails(id),
      type TEXT NOT NULL,
      timestamp REAL NOT NULL,
      data TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX trail_events_by_trail ON trail_events (trail_id, seq);

    CREATE TABLE artifacts (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      flow_id TEXT NOT NULL REFERENCES flows(id),
      trail_id TEXT NOT NULL REFERENCES trails(id),
      fingerprint TEXT NOT NULL,
      template_reference_name TEXT NOT NULL,
      filename TEXT NOT NULL,
      git_commit TEXT NOT NULL DEFAULT '',
      repo_name TEXT,
      body TEXT NOT NULL DEFAULT '{}',
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      UNIQUE (trail_id, fingerprint, template_reference_name)
    );
    CREATE INDEX artifacts_by_fingerprint ON artifacts (org_id, fingerprint);
    CREATE INDEX artifacts_by_commit ON artifacts (org_id, git_commit);
    CREATE INDEX artifacts_by_flow ON artifacts (flow_id, seq);
    CREATE INDEX artifacts_by_trail ON artifacts (trail_id, seq);

    CREATE TABLE attestations (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      flow_id TEXT NOT NULL REFERENCES flows(id),
      trail_id TEXT NOT NULL REFERENCES trails(id),
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      is_override INTEGER NOT NULL DEFAULT 0,
      is_compliant INTEGER NOT NULL,
      artifact_fingerprint TEXT,
      target_artifact TEXT,
      evidence_sha256 TEXT,
      evidence_filename TEXT,
      body TEXT NOT NULL,
      reported_by TEXT NOT NULL,
      created_at REAL NOT NULL
    );
    CREATE INDEX attestations_by_trail ON attestations (trail_id, seq);
    CREATE INDEX attestations_by_flow ON attestations (flow_id, created_at);
    CREATE INDEX attestations_by_org ON attestations (org_id, seq);

    CREATE TABLE custom_attestation_types (
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      name TEXT NOT NULL,
      version INTEGER NOT NULL,
      description TEXT,
      schema TEXT NOT NULL,
      evaluator TEXT,
      summary TEXT,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      archived_at REAL,
      PRIMARY KEY (org_id, name, version)
    );
  `,
};

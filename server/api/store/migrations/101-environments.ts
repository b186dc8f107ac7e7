import type { Migration } from './index.ts';

// Environments, their snapshots and events. Snapshot artifacts are stored as one JSON document
// per snapshot (read whole by GET), beside a compact `states` document that the next report's
// diff reads; events are rows, because the audit log filters and streams them.
export const migration101: Migration = {
  id: '101-environments',
  sql: `
    CREATE TABLE environments (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      require_provenance INTEGER NOT NULL DEFAULT 0,
      tags TEXT NOT NULL DEFAULT '{}',
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      last_reported_at REAL,
      last_changed_at REAL,
      snapshot_count INTEGER NOT NULL DEFAULT 0,
      archived_at REAL
    );
    -- An archived environment frees its name (reference §1.7).
    CREATE UNIQUE INDEX environments_live_name ON environments (org_id, name) WHERE archived_at IS NULL;

    CREATE TABLE environment_includes (
      logical_id INTEGER NOT NULL REFERENCES environments(id),
      physical_id INTEGER NOT NULL REFERENCES environments(id),
      position INTEGER NOT NULL,
      PRIMARY KEY (logical_id, physical_id)
    );

    CREATE TABLE snapshots (
      id INTEGER PRIMARY KEY,
      environment_id INTEGER NOT NULL REFERENCES environments(id),
      idx INTEGER NOT NULL,
      started_at REAL NOT NULL,
      ended_at REAL NOT NULL DEFAULT 0,
      compliant INTEGER NOT NULL,
      compliance_count TEXT NOT NULL,
      applied_policies TEXT NOT NULL,
      states TEXT NOT NULL,
      artifacts TEXT NOT NULL,
      UNIQUE (environment_id, idx)
    );
    CREATE INDEX snapshots_by_time ON snapshots (environment_id, started_at);

    CREATE TABLE environment_events (
      id INTEGER PRIMARY KEY,
      environment_id INTEGER NOT NULL REFERENCES environments(id),
      snapshot_idx INTEGER NOT NULL,
      type TEXT NOT NULL,
      reported_at REAL NOT NULL,
      artifact_name TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      description TEXT NOT NULL,
      flow_names TEXT NOT NULL,
      trail_names TEXT NOT NULL,
      git_commit TEXT NOT NULL,
      repo_names TEXT NOT NULL,
      pipeline TEXT NOT NULL,
      artifact_compliance INTEGER,
      snapshot_compliance INTEGER
    );
    CREATE INDEX environment_events_by_env ON environment_events (environment_id, id);
    CREATE INDEX environment_events_by_time ON environment_events (environment_id, reported_at);

  `,
};

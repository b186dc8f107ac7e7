import type { Migration } from './index.ts';

// Environment policies: versioned YAML documents, their history, and which environments use them.
export const migration102: Migration = {
  id: '102-policies',
  sql: `
    CREATE TABLE policies (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      type TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      archived_at REAL
    );
    CREATE UNIQUE INDEX policies_live_name ON policies (org_id, name) WHERE archived_at IS NULL;

    CREATE TABLE policy_versions (
      policy_id INTEGER NOT NULL REFERENCES policies(id),
      version INTEGER NOT NULL,
      policy_yaml TEXT NOT NULL,
      comment TEXT NOT NULL DEFAULT '',
      created_by TEXT NOT NULL,
      timestamp REAL NOT NULL,
      -- Control identifiers the version's rules name in for_control (controls' policies_referencing).
      controls TEXT NOT NULL DEFAULT '[]',
      PRIMARY KEY (policy_id, version)
    );

    CREATE TABLE policy_events (
      id INTEGER PRIMARY KEY,
      policy_id INTEGER NOT NULL REFERENCES policies(id),
      type TEXT NOT NULL,
      timestamp REAL NOT NULL,
      user TEXT NOT NULL,
      data TEXT NOT NULL
    );
    CREATE INDEX policy_events_by_policy ON policy_events (policy_id, id);

    CREATE TABLE environment_policies (
      environment_id INTEGER NOT NULL REFERENCES environments(id),
      policy_id INTEGER NOT NULL REFERENCES policies(id),
      position INTEGER NOT NULL,
      PRIMARY KEY (environment_id, policy_id)
    );
    CREATE INDEX environment_policies_by_policy ON environment_policies (policy_id);
  `,
};

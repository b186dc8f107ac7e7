import type { Migration } from './index.ts';

// Artifacts allowed in an environment (reference §2.17).
export const migration104: Migration = {
  id: '104-allowlists',
  sql: `
    CREATE TABLE allowlist_entries (
      id INTEGER PRIMARY KEY,
      environment_id INTEGER NOT NULL REFERENCES environments(id),
      artifact_fingerprint TEXT NOT NULL,
      artifact_name TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      UNIQUE (environment_id, artifact_fingerprint)
    );
  `,
};

import type { Migration } from './index.ts';

// Controls (beta) and actions (notifications). Actions are numbered per org and never renumbered,
// so a deleted action keeps its row (and its number) with `deleted_at` set.
export const migration103: Migration = {
  id: '103-controls-and-actions',
  sql: `
    CREATE TABLE controls (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      identifier TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      links TEXT NOT NULL DEFAULT '{}',
      tags TEXT NOT NULL DEFAULT '{}',
      version INTEGER NOT NULL,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      archived INTEGER NOT NULL DEFAULT 0,
      UNIQUE (org_id, identifier)
    );

    CREATE TABLE actions (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      number INTEGER NOT NULL,
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      targets TEXT NOT NULL,
      triggers TEXT NOT NULL,
      environments TEXT NOT NULL,
      flows TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      is_failing INTEGER NOT NULL DEFAULT 0,
      last_success_timestamp REAL,
      last_failure_timestamp REAL,
      deleted_at REAL,
      UNIQUE (org_id, number)
    );
    CREATE UNIQUE INDEX actions_live_name ON actions (org_id, name) WHERE deleted_at IS NULL;
  `,
};

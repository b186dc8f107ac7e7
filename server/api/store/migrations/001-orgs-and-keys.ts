import type { Migration } from './index.ts';

export const migration001: Migration = {
  id: '001-orgs-and-keys',
  sql: `
    CREATE TABLE orgs (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      features TEXT NOT NULL DEFAULT '{}',
      created_at REAL NOT NULL
    );
    CREATE TABLE service_accounts (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      privilege TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at REAL NOT NULL,
      last_modified_at REAL NOT NULL,
      UNIQUE (org_id, name)
    );
    CREATE TABLE service_account_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES service_accounts(id) ON DELETE CASCADE,
      key_hash TEXT NOT NULL UNIQUE,
      description TEXT NOT NULL DEFAULT '',
      created_at REAL NOT NULL,
      expires_at INTEGER,
      revoked_at REAL
    );
    CREATE INDEX service_account_keys_account ON service_account_keys (account_id);
  `,
};

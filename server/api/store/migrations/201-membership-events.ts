import type { Migration } from './index.ts';

// The membership audit log (reference §2.18): who gave whom access to an org and when, kept even
// after the account or key it names is gone. 200–299: the catalogue completed in this round.
export const migration201: Migration = {
  id: '201-membership-events',
  sql: `
    CREATE TABLE membership_events (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      type TEXT NOT NULL,
      account TEXT NOT NULL,
      key_id TEXT,
      user TEXT NOT NULL,
      data TEXT NOT NULL DEFAULT '{}',
      timestamp REAL NOT NULL
    );
    CREATE INDEX membership_events_org_time ON membership_events (org_id, timestamp, id);
  `,
};

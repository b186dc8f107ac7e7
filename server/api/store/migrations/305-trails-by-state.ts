import type { Migration } from './index.ts';

// An org's home page lists the trails that are NON-COMPLIANT, the most recently changed first
// (services/overview.ts): an index on the stored state (migration 203) in that order makes it a
// short range read, however many trails the org has.
export const migration305: Migration = {
  id: '305-trails-by-state',
  sql: `
    CREATE INDEX trails_by_state ON trails (org_id, compliance_state, last_modified_at);
  `,
};

import type { Migration } from './index.ts';

// Pages read by position (issue 27, store/listPositions.ts). The org-level lists of trails and
// artifacts leave out those of archived flows, whose rows keep their numbers: each such number is a
// gap of its list, kept here with how many listed rows come before it (its number less its rank
// among the gaps), so a listed rank becomes a number with one seek on list_gaps_by_listed.
export const migration240: Migration = {
  id: '240-list-gaps',
  sql: `
    CREATE TABLE list_gaps (
      list TEXT NOT NULL,
      org_id INTEGER NOT NULL,
      part TEXT NOT NULL,
      pos INTEGER NOT NULL,
      listed_before INTEGER NOT NULL,
      PRIMARY KEY (list, org_id, part, pos)
    );
    CREATE INDEX list_gaps_by_listed ON list_gaps (list, org_id, part, listed_before, pos);
  `,
};

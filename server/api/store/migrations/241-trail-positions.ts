import { GAP_MATCHED, GAPS_RECOUNTED } from '../listPositions.ts';
import type { Migration } from './index.ts';

// A flow's trails and an org's trails are numbered in the order they list in (created_at, then
// insertion; 1 for the oldest), so a page of either is a seek however deep it is (issue 27). The
// org's list left out the trails of archived flows: their numbers are its gaps. The index by org
// and time served that list only.
export const migration241: Migration = {
  id: '241-trail-positions',
  sql: `
    ALTER TABLE trails ADD COLUMN flow_pos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE trails ADD COLUMN org_pos INTEGER NOT NULL DEFAULT 0;
    UPDATE trails SET flow_pos = n.flow_pos, org_pos = n.org_pos
      FROM (SELECT id, row_number() OVER (PARTITION BY flow_id ORDER BY created_at, rowid) AS flow_pos,
                   row_number() OVER (PARTITION BY org_id ORDER BY created_at, rowid) AS org_pos
              FROM trails) n
     WHERE trails.id = n.id;
    CREATE INDEX trails_by_flow_pos ON trails (flow_id, flow_pos);
    CREATE INDEX trails_by_org_pos ON trails (org_id, org_pos);
    DROP INDEX trails_by_org;
    INSERT INTO list_gaps (list, org_id, part, pos, listed_before)
      SELECT 'trails', t.org_id, '', t.org_pos, 0 FROM trails t JOIN flows f ON f.id = t.flow_id WHERE f.archived_at IS NOT NULL;
    ${GAPS_RECOUNTED} WHERE list = 'trails') r WHERE ${GAP_MATCHED};
  `,
};

import type { Migration } from './index.ts';

// An environment's events are numbered in the order they list in (snapshot, then id; 1 for the
// oldest), and each snapshot keeps how many events the environment had once it was recorded
// (events_through), so the events of a range of snapshots are a range of numbers found by two
// snapshot keys, and a page of them is a seek however deep it is (issue 27). Events only arrive,
// each snapshot's after the one before's, so numbers are given in that order and never move.
export const migration244: Migration = {
  id: '244-event-positions',
  sql: `
    ALTER TABLE environment_events ADD COLUMN env_pos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE snapshots ADD COLUMN events_through INTEGER NOT NULL DEFAULT 0;
    UPDATE environment_events SET env_pos = n.env_pos
      FROM (SELECT id, row_number() OVER (PARTITION BY environment_id ORDER BY snapshot_idx, id) AS env_pos FROM environment_events) n
     WHERE environment_events.id = n.id;
    UPDATE snapshots SET events_through = c.n
      FROM (SELECT s.id, sum(coalesce(e.n, 0)) OVER (PARTITION BY s.environment_id ORDER BY s.idx) AS n
              FROM snapshots s
              LEFT JOIN (SELECT environment_id, snapshot_idx, count(*) AS n FROM environment_events GROUP BY environment_id, snapshot_idx) e
                ON e.environment_id = s.environment_id AND e.snapshot_idx = s.idx) c
     WHERE snapshots.id = c.id;
    CREATE INDEX environment_events_by_pos ON environment_events (environment_id, env_pos);
  `,
};

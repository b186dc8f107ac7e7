import type { Migration } from './index.ts';

// Lists of artifacts and attestations leave out those of archived flows. Asked as "no archived
// flow holds it" (NOT EXISTS over this index, empty while no flow is archived), PostgreSQL
// estimates that nearly every row passes and reads a page in index order, stopping after it;
// asked as "its flow's archived_at IS NULL" it could not estimate the filter and, on a small
// store, read and sorted every row instead (measured at 1k artifacts: 1.2 ms -> 0.1 ms a page).
export const migration209: Migration = {
  id: '209-archived-flows',
  sql: `
    CREATE INDEX flows_archived ON flows (id) WHERE archived_at IS NOT NULL;
  `,
};

import type { Migration } from './index.ts';

// Repos exist only as the repo_info of trails, attestations and artifacts; their tags, set through
// the tags route by repo id (reference §2.13), need a place of their own.
export const migration005: Migration = {
  id: '005-repo-tags',
  sql: `
    CREATE TABLE repo_tags (
      org_id INTEGER NOT NULL REFERENCES orgs(id),
      repo_id TEXT NOT NULL,
      tags TEXT NOT NULL DEFAULT '{}',
      last_modified_at REAL NOT NULL,
      PRIMARY KEY (org_id, repo_id)
    );
  `,
};

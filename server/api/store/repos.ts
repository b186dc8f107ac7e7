// Repositories are not created on their own: they are the `repo_info` objects sent with trails,
// attestations and artifacts (reference §2.14).
import type { Sql } from './db.ts';

export interface RepoStore {
  /** Every distinct repo_info of the org, first seen first. */
  all(orgId: number): Array<Record<string, unknown>>;
}

export function sqliteRepoStore(sql: Sql): RepoStore {
  return {
    all(orgId) {
      const rows = sql.all<{ info: string; seen: number }>(
        `SELECT json_extract(body, '$.repo_info') AS info, created_at AS seen FROM trails WHERE org_id = ? AND json_valid(body) AND json_type(body, '$.repo_info') = 'object'
         UNION ALL
         SELECT json_extract(body, '$.repo_info'), created_at FROM attestations WHERE org_id = ? AND json_valid(body) AND json_type(body, '$.repo_info') = 'object'
         UNION ALL
         SELECT json_extract(body, '$.repo_info'), created_at FROM artifacts WHERE org_id = ? AND json_valid(body) AND json_type(body, '$.repo_info') = 'object'
         ORDER BY seen`,
        orgId,
        orgId,
        orgId,
      );
      const repos = new Map<string, Record<string, unknown>>();
      for (const row of rows) {
        const info = JSON.parse(row.info) as Record<string, unknown>;
        const key = JSON.stringify([info.provider ?? null, info.name, info.id ?? info.url]);
        repos.set(key, { ...repos.get(key), ...info });
      }
      return [...repos.values()];
    },
  };
}

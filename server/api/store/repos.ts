// Repositories are not created on their own: they are the `repo_info` objects sent with trails,
// attestations and artifacts (reference §2.14).
import type { Statements } from './db.ts';

/** A repo_info object as clients sent it (its fields merged over every time it was sent). */
export type RepoInfo = Record<string, unknown>;

export interface RepoStore {
  /** Every distinct repo_info of the org, first seen first. */
  all(orgId: number): Promise<RepoInfo[]>;
  /** The tags of a repo by its id; `{}` when none were set. */
  tags(orgId: number, repoId: string): Promise<Record<string, string>>;
  setTags(orgId: number, repoId: string, tags: Record<string, string>, now: number): Promise<void>;
  /** The tags of every repo of the org that has some. */
  tagSets(orgId: number): Promise<Array<Record<string, string>>>;
}

export function repoStore(sql: Statements): RepoStore {
  return {
    async all(orgId) {
      const rows = await sql.all<{ info: string; seen: number }>(
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
      const repos = new Map<string, RepoInfo>();
      for (const row of rows) {
        const info = JSON.parse(row.info) as RepoInfo;
        const key = JSON.stringify([info.provider ?? null, info.name, info.id ?? info.url]);
        repos.set(key, { ...repos.get(key), ...info });
      }
      return [...repos.values()];
    },
    async tags(orgId, repoId) {
      const row = await sql.get<{ tags: string }>(
        'SELECT tags FROM repo_tags WHERE org_id = ? AND repo_id = ?',
        orgId,
        repoId,
      );
      return row === undefined ? {} : (JSON.parse(row.tags) as Record<string, string>);
    },
    async setTags(orgId, repoId, tags, now) {
      await sql.run(
        'INSERT INTO repo_tags (org_id, repo_id, tags, last_modified_at) VALUES (?, ?, ?, ?) ON CONFLICT (org_id, repo_id) DO UPDATE SET tags = excluded.tags, last_modified_at = excluded.last_modified_at',
        orgId,
        repoId,
        JSON.stringify(tags),
        now,
      );
    },
    async tagSets(orgId) {
      const rows = await sql.all<{ tags: string }>(
        `SELECT tags FROM repo_tags WHERE org_id = ? AND json_valid(tags) AND tags <> '{}' ORDER BY repo_id`,
        orgId,
      );
      return rows.map((row) => JSON.parse(row.tags) as Record<string, string>);
    },
  };
}

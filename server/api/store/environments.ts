import { decodeEach, placeholderList, type Param, type Statements, type Unreadable } from './db.ts';
import { nameSortKey } from './sortKey.ts';
import { tagCondition } from './tagFilter.ts';

export interface Environment {
  id: number;
  orgId: number;
  name: string;
  type: string;
  description: string;
  requireProvenance: boolean;
  tags: Record<string, string>;
  createdBy: string;
  createdAt: number;
  lastModifiedAt: number;
  lastReportedAt: number | null;
  lastChangedAt: number | null;
  snapshotCount: number;
  /** Names of the physical environments a logical one includes, in the order given. */
  included: string[];
  /** Names of the attached policies, in the order attached. */
  policies: string[];
  /** Compliance of the latest snapshot; null with no snapshot or no policy (reference §2.5). */
  state: boolean | null;
}

export interface NewEnvironment {
  orgId: number;
  name: string;
  type: string;
  description: string;
  requireProvenance: boolean;
  createdBy: string;
}

/** An artifact allowed in an environment. */
export interface AllowlistEntry {
  environmentName: string;
  artifactFingerprint: string;
  artifactName: string;
  description: string;
  createdBy: string;
  createdAt: number;
}

export interface EnvironmentQuery {
  /** Only environments whose name contains this text, case aside. */
  nameContains?: string;
  /** Only environments of one of these types. */
  types?: readonly string[];
  /** Only environments carrying this tag, `key` or `key:value`. */
  tag?: string;
  /** By name as localeCompare orders, or by a time then name; none: by name as stored (binary). */
  sort?: 'name' | 'last_modified_at' | 'last_changed_at';
  descending: boolean;
}

export interface EnvironmentPage {
  /** The environments the query selects plus every unreadable one. */
  total: number;
  /** The query's environments in order, then the org's unreadable ones by name. */
  environments: Array<Environment | Unreadable>;
}

export interface EnvironmentStore {
  /** A live (not archived) environment by name. */
  byName(orgId: number, name: string): Promise<Environment | undefined>;
  byId(id: number): Promise<Environment | undefined>;
  /**
   * One page (`limit` -1: all) of the org's live environments a query selects, followed by the
   * ones whose row cannot be decoded (marked unreadable, whatever the query), and their number.
   */
  page(orgId: number, query: EnvironmentQuery, limit: number, offset: number): Promise<EnvironmentPage>;
  create(environment: NewEnvironment, now: number): Promise<number>;
  update(id: number, changes: { description?: string; requireProvenance?: boolean }, now: number): Promise<void>;
  rename(id: number, newName: string, now: number): Promise<void>;
  archive(id: number, now: number): Promise<void>;
  setTags(id: number, tags: Record<string, string>, now: number): Promise<void>;
  /** Replaces the physical environments a logical one includes. */
  setIncluded(logicalId: number, physicalIds: readonly number[], now: number): Promise<void>;
  /** Allows an artifact in an environment; allowing it again replaces its name and description. */
  allow(
    environmentId: number,
    entry: { artifactFingerprint: string; artifactName: string; description: string; createdBy: string },
    now: number,
  ): Promise<void>;
  /** Allowed artifacts in the org's live environments, by environment then time. */
  allowlist(orgId: number): Promise<AllowlistEntry[]>;
  /** The fingerprints allowed in one environment. */
  allowedIn(environmentId: number): Promise<Set<string>>;
  /** Records that a report arrived (whether or not it made a snapshot). */
  markReported(id: number, now: number): Promise<void>;
  /** The live logical environments that include a physical one. */
  logicalIncluding(physicalId: number): Promise<Environment[]>;
}

interface EnvironmentRow {
  id: number;
  org_id: number;
  name: string;
  type: string;
  description: string;
  require_provenance: number;
  tags: string;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  last_reported_at: number | null;
  last_changed_at: number | null;
  snapshot_count: number;
  included: string | null;
  policies: string | null;
  latest_compliant: number | null;
  [column: string]: unknown;
}

// One query gives an environment with its included names, policy names and latest compliance.
const SELECT = `
  SELECT e.*,
    (SELECT json_group_array(p.name) FROM (
       SELECT p.name FROM environment_includes i JOIN environments p ON p.id = i.physical_id
       WHERE i.logical_id = e.id AND p.archived_at IS NULL ORDER BY i.position) p) AS included,
    (SELECT json_group_array(q.name) FROM (
       SELECT q.name FROM environment_policies ep JOIN policies q ON q.id = ep.policy_id
       WHERE ep.environment_id = e.id AND q.archived_at IS NULL ORDER BY ep.position) q) AS policies,
    (SELECT s.compliant FROM snapshots s WHERE s.environment_id = e.id AND s.idx = e.snapshot_count) AS latest_compliant
  FROM environments e`;

function toEnvironment(row: EnvironmentRow): Environment {
  const policies = JSON.parse(row.policies ?? '[]') as string[];
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    type: row.type,
    description: row.description,
    requireProvenance: row.require_provenance === 1,
    tags: JSON.parse(row.tags) as Record<string, string>,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastModifiedAt: row.last_modified_at,
    lastReportedAt: row.last_reported_at,
    lastChangedAt: row.last_changed_at,
    snapshotCount: row.snapshot_count,
    included: JSON.parse(row.included ?? '[]') as string[],
    policies,
    state: row.latest_compliant === null || policies.length === 0 ? null : row.latest_compliant === 1,
  };
}

export function environmentStore(sql: Statements): EnvironmentStore {
  return {
    async byName(orgId, name) {
      const row = await sql.get<EnvironmentRow>(
        `${SELECT} WHERE e.org_id = ? AND e.name = ? AND e.archived_at IS NULL`,
        orgId,
        name,
      );
      return row === undefined ? undefined : toEnvironment(row);
    },
    async byId(id) {
      const row = await sql.get<EnvironmentRow>(`${SELECT} WHERE e.id = ?`, id);
      return row === undefined ? undefined : toEnvironment(row);
    },
    async page(orgId, query, limit, offset) {
      const where = ['e.org_id = ?', 'e.archived_at IS NULL', 'json_valid(e.tags)'];
      const params: Param[] = [orgId];
      if (query.nameContains !== undefined) {
        // Names are ASCII, so SQL's lower() folds them as JavaScript does.
        where.push('instr(lower(e.name), ?) > 0');
        params.push(query.nameContains.toLowerCase());
      }
      if (query.types !== undefined && query.types.length > 0) {
        where.push(`e.type IN (${placeholderList(query.types.length)})`);
        params.push(...query.types);
      }
      if (query.tag !== undefined) {
        const tag = tagCondition('e.tags', query.tag, ':');
        where.push(tag.sql);
        params.push(...tag.params);
      }
      const direction = query.descending ? 'DESC' : 'ASC';
      const order =
        query.sort === undefined
          ? `e.name ${direction}`
          : query.sort === 'name'
            ? `e.name_key ${direction}`
            : query.sort === 'last_modified_at'
              ? `e.last_modified_at ${direction}, e.name_key ${direction}`
              : `coalesce(e.last_changed_at, 0) ${direction}, e.name_key ${direction}`;
      const unreadable = 'e.org_id = ? AND e.archived_at IS NULL AND NOT json_valid(e.tags)';
      const unreadableCount = async () =>
        Number(
          (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM environments e WHERE ${unreadable}`, orgId))!.n,
        );
      // Unfiltered, the total is the org's count kept on write (migration 202): every live one.
      const total =
        where.length === 3
          ? Number((await sql.get<{ n: number }>('SELECT live_environments AS n FROM orgs WHERE id = ?', orgId))!.n)
          : Number(
              (await sql.get<{ n: number }>(
                `SELECT count(*) AS n FROM environments e WHERE ${where.join(' AND ')}`,
                ...params,
              ))!.n,
            ) + (await unreadableCount());
      const rows = await sql.all<EnvironmentRow>(
        `${SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      );
      // The unreadable rows follow the selected ones: the page takes those its window reaches.
      const left = limit === -1 ? -1 : limit - rows.length;
      if (left === 0) return { total, environments: decodeEach(rows, toEnvironment) };
      const selected =
        rows.length > 0 || offset === 0
          ? offset + rows.length
          : Number(
              (await sql.get<{ n: number }>(
                `SELECT count(*) AS n FROM environments e WHERE ${where.join(' AND ')}`,
                ...params,
              ))!.n,
            );
      const damaged = await sql.all<EnvironmentRow>(
        `${SELECT} WHERE ${unreadable} ORDER BY e.name LIMIT ? OFFSET ?`,
        orgId,
        left,
        Math.max(0, offset - selected),
      );
      return { total, environments: decodeEach([...rows, ...damaged], toEnvironment) };
    },
    async create(environment, now) {
      return (await sql.get<{ id: number }>(
        `INSERT INTO environments (org_id, name, name_key, type, description, require_provenance, created_by, created_at, last_modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        environment.orgId,
        environment.name,
        nameSortKey(environment.name),
        environment.type,
        environment.description,
        environment.requireProvenance ? 1 : 0,
        environment.createdBy,
        now,
        now,
      ))!.id;
    },
    async update(id, changes, now) {
      if (changes.description !== undefined)
        await sql.run('UPDATE environments SET description = ? WHERE id = ?', changes.description, id);
      if (changes.requireProvenance !== undefined) {
        await sql.run(
          'UPDATE environments SET require_provenance = ? WHERE id = ?',
          changes.requireProvenance ? 1 : 0,
          id,
        );
      }
      await sql.run('UPDATE environments SET last_modified_at = ? WHERE id = ?', now, id);
    },
    async rename(id, newName, now) {
      await sql.run(
        'UPDATE environments SET name = ?, name_key = ?, last_modified_at = ? WHERE id = ?',
        newName,
        nameSortKey(newName),
        now,
        id,
      );
    },
    async archive(id, now) {
      await sql.run('UPDATE environments SET archived_at = ?, last_modified_at = ? WHERE id = ?', now, now, id);
    },
    async setTags(id, tags, now) {
      await sql.run(
        'UPDATE environments SET tags = ?, last_modified_at = ? WHERE id = ?',
        JSON.stringify(tags),
        now,
        id,
      );
    },
    async setIncluded(logicalId, physicalIds, now) {
      await sql.run('DELETE FROM environment_includes WHERE logical_id = ?', logicalId);
      for (const [position, physicalId] of physicalIds.entries()) {
        await sql.run(
          'INSERT INTO environment_includes (logical_id, physical_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
          logicalId,
          physicalId,
          position,
        );
      }
      await sql.run('UPDATE environments SET last_modified_at = ? WHERE id = ?', now, logicalId);
    },
    async allow(environmentId, entry, now) {
      await sql.run(
        `INSERT INTO allowlist_entries (environment_id, artifact_fingerprint, artifact_name, description, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (environment_id, artifact_fingerprint) DO UPDATE SET artifact_name = excluded.artifact_name, description = excluded.description`,
        environmentId,
        entry.artifactFingerprint,
        entry.artifactName,
        entry.description,
        entry.createdBy,
        now,
      );
    },
    async allowlist(orgId) {
      return (
        await sql.all<{
          name: string;
          artifact_fingerprint: string;
          artifact_name: string;
          description: string;
          created_by: string;
          created_at: number;
        }>(
          `SELECT e.name, a.artifact_fingerprint, a.artifact_name, a.description, a.created_by, a.created_at
           FROM allowlist_entries a JOIN environments e ON e.id = a.environment_id
           WHERE e.org_id = ? AND e.archived_at IS NULL ORDER BY e.name, a.created_at`,
          orgId,
        )
      ).map((row) => ({
        environmentName: row.name,
        artifactFingerprint: row.artifact_fingerprint,
        artifactName: row.artifact_name,
        description: row.description,
        createdBy: row.created_by,
        createdAt: row.created_at,
      }));
    },
    async allowedIn(environmentId) {
      const rows = await sql.all<{ artifact_fingerprint: string }>(
        'SELECT artifact_fingerprint FROM allowlist_entries WHERE environment_id = ?',
        environmentId,
      );
      return new Set(rows.map((row) => row.artifact_fingerprint));
    },
    async logicalIncluding(physicalId) {
      const rows = await sql.all<{ logical_id: number }>(
        `SELECT i.logical_id FROM environment_includes i JOIN environments e ON e.id = i.logical_id
         WHERE i.physical_id = ? AND e.archived_at IS NULL ORDER BY e.name`,
        physicalId,
      );
      const found: Environment[] = [];
      for (const row of rows) {
        const environment = await this.byId(row.logical_id);
        if (environment !== undefined) found.push(environment);
      }
      return found;
    },
    async markReported(id, now) {
      await sql.run('UPDATE environments SET last_reported_at = ? WHERE id = ?', now, id);
    },
  };
}
